"""Wrap text from email as untrusted data before any model sees it.

An attacker who can write `</untrusted_content>` into a message could end the wrapper and
talk to the model as the system. So before wrapping, every string that *could be read* as
a wrapper tag is removed — by a model, which reads loosely — not only the exact spelling:
upper/lower case, whitespace, `/` or `\\` or attributes inside the tag, HTML entities
(`&lt;`, `&#60;`, `&#x3c;`, nested `&amp;lt;`), full-width and look-alike angle brackets,
invisible characters (format characters, combining marks, Hangul fillers) inside the name,
and any punctuation, dash or space in place of `_`, look-alike letters from other scripts
(Cyrillic "о" in "cоntent") and any punctuation between the bracket and the name
(`<!untrusted_content x>`). What is left cannot open or close the wrapper because no bracket
survives next to the tag name, in any of those spellings.

Chat-template control tokens are neutralised the same way, before wrapping: an inference
server that parses special tokens in the prompt (llama.cpp does) would read `<|im_end|>`,
`<|eot_id|>`, `<end_of_turn>` or `[INST]` in an email as a real turn boundary. Every known
family's spelling is removed (ChatML, Llama 2/3, Mistral, Gemma, Phi, DeepSeek, Command-R,
Granite, GLM, harmony, and any `<|name|>`), read through the same loose reading: case,
width, entities, invisibles, look-alike brackets, bars and letters.
"""

from __future__ import annotations

import html
import re
import unicodedata

TAG = "untrusted_content"

# Characters a reader might take for "<" or ">".
_LT = "<\uff1c\u2039\u3008\u27e8\u2329\u276e\u276c\u2770\u29fc\u02c2\u1438\u16b2\ufe64"
_GT = ">\uff1e\u203a\u3009\u27e9\u232a\u276f\u276d\u2771\u29fd\u02c3\u1433\ufe65"
# Last resort when removal does not settle: no bracket and no "&" means no tag at all.
_BRACKET_RX = re.compile(rf"[{_LT}{_GT}&]")
_MAX_PASSES = 8

# Letters and marks from other scripts a reader takes for Latin ones, one for one, so a match
# in the folded text is at the same position in the text itself. Only used for finding.
_CONFUSABLE = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ɡ": "g", "ո": "n", "ս": "u", "ν": "v", "ο": "o", "α": "a", "ε": "e",
    "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j", "ɑ": "a",
    "ı": "i", "ɩ": "i", "ℓ": "l", "ⅼ": "l", "Ɩ": "l", "ɪ": "i", "ʀ": "r", "ꜱ": "s", "ᴄ": "c",
    "ᴏ": "o", "ᴛ": "t", "ᴜ": "u", "ɴ": "n", "ᴇ": "e", "ᴍ": "m", "ꞇ": "t",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Α": "A", "Β": "B", "Ε": "E",
    "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X",
    "Υ": "Y", "Ζ": "Z",
}
_BARS = "|\uff5c\u2223\u01c0\u2502\u2503\uffe8\u05c0\u23d0\u2758\u2016\u00a6"
_FOLD = str.maketrans({**_CONFUSABLE, **dict.fromkeys(_LT, "<"), **dict.fromkeys(_GT, ">"),
                       **dict.fromkeys(_BARS, "|"), "\u2581": "_"})

# Hangul fillers render as nothing but are letters, not format characters.
_FILLERS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0})
_DROP_CATEGORIES = frozenset({"Cf", "Mn", "Me"})


class _DropInvisible(dict[int, int | None]):
    """A str.translate table that drops invisible code points, filled in as they are met."""

    def __missing__(self, cp: int) -> int | None:
        drop = cp in _FILLERS or unicodedata.category(chr(cp)) in _DROP_CATEGORIES
        self[cp] = None if drop else cp
        return self[cp]


_DROP = _DropInvisible()


def _canonical(text: str) -> str:
    """The spelling a model would 'see': entities decoded, invisibles gone, NFKC.

    The steps feed each other (NFKC turns "＆ｌｔ；" into "&lt;", removing an invisible
    character can complete an entity), so they repeat until nothing changes.
    """
    out = text
    for _ in range(_MAX_PASSES):
        decoded = out
        while (step := html.unescape(decoded)) != decoded:  # nested: &amp;lt;
            decoded = step
        # NFKD first so combining marks come apart from their base ("≮" is "<" + U+0338).
        bare = unicodedata.normalize("NFKD", decoded).translate(_DROP)
        updated = unicodedata.normalize("NFKC", bare)
        if updated == out:
            return out
        out = updated
    return _BRACKET_RX.sub(" ", out)


# Tags are looked for in folded text (ASCII brackets and bars, Latin letters). Between the
# two words a reader may see any punctuation, space or dash ("untrusted-content",
# "untrusted · content"); after the bracket a little punctuation ("<!", "</ "). No word
# boundary after the name: "<untrusted_contentX" is close enough to fool a reader. A bare
# name with no bracket is harmless; one with a bracket on either side is not.
_F_SEP = r"(?:[^\w<>]|_)*"
_F_NAME = rf"untrusted{_F_SEP}content"
_F_TAG = re.compile(rf"<[^\w<>]{{0,8}}{_F_NAME}[^<>]*>?", re.IGNORECASE)
_F_HALF = re.compile(rf"[/\\]?\s*{_F_NAME}\b[\s/\\]*>", re.IGNORECASE)
# Turn and role names of the known chat templates (ChatML/Qwen, Llama 3, Phi, Granite,
# DeepSeek, Command-R, harmony, GLM, FIM), for halves of a `<|name|>` token.
_TOKEN_NAMES = (
    r"im_start|im_end|im_sep|endoftext|endofprompt|eot_id|eom_id|start_header_id|"
    r"end_header_id|begin_of_text|end_of_text|start_of_role|end_of_role|start_of_turn|"
    r"end_of_turn|begin_of_sentence|end_of_sentence|start_of_turn_token|end_of_turn_token|"
    r"user_token|chatbot_token|system_token|python_tag|system|user|assistant|observation|"
    r"start|end|message|channel|return|call|constrain|tool_call|fim_prefix|fim_middle|"
    r"fim_suffix|fim_pad|file_sep|repo_name|reserved_special_token_\d+"
)
# Tokens spelled with angle brackets alone (Gemma, Llama 2's <s>, Qwen tool calls, GLM).
_ANGLE_NAMES = (
    r"s|bos|eos|pad|unk|mask|sep|cls|sop|eop|start_of_turn|end_of_turn|start_of_image|"
    r"end_of_image|image|tool_call|tool_response|tool_code|think|im_start|im_end|eot_id|"
    r"start_header_id|end_header_id|begin_of_text|end_of_text|endoftext"
)
# Tokens in square brackets (Llama 2 / Mistral, GLM, BERT-style).
_SQUARE_NAMES = (
    r"INST|SYS|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|TOOL_CONTENT|THINK|"
    r"PREFIX|MIDDLE|SUFFIX|IMG|IMG_BREAK|IMG_END|gMASK|sMASK|MASK|CLS|SEP|BOS|EOS|PAD|UNK"
)
_F_TOKEN = re.compile(
    # any <|name|>, <|reserved_special_token_7|>, and "<|\n|>" split over lines
    r"<\s*\|[^<>|]{0,64}\|\s*>"
    rf"|<\s*\|\s*(?:{_TOKEN_NAMES})\s*\|?"  # an opening half: "<|im_start", "<|im_end|"
    rf"|\|?\s*(?:{_TOKEN_NAMES})\s*\|\s*>"  # a closing half: "im_end|>"
    rf"|<\s*/?\s*(?:{_ANGLE_NAMES})\s*/?\s*>"  # <s>, </s>, <end_of_turn>
    rf"|\[\s*/?\s*(?:{_SQUARE_NAMES})\s*\]"  # [INST], [/INST], [TOOL_CALLS]
    r"|<<\s*/?\s*SYS\s*>>",  # Llama 2's <<SYS>>
    re.IGNORECASE)
_LAST_RESORT_RX = re.compile(rf"[{_LT}{_GT}&\[\]{_BARS}]")


def _cut(rx: re.Pattern[str], text: str, folded: str) -> tuple[str, str]:
    """Remove from `text` every span where `rx` matches `folded` (its one-for-one fold)."""
    spans = [m.span() for m in rx.finditer(folded) if m.end() > m.start()]
    if not spans:
        return text, folded
    keep_text, keep_folded, at = [], [], 0
    for start, end in spans:
        keep_text.append(text[at:start])
        keep_folded.append(folded[at:start])
        at = end
    keep_text.append(text[at:])
    keep_folded.append(folded[at:])
    return "".join(keep_text), "".join(keep_folded)


def _defang(text: str, rxs: tuple[re.Pattern[str], ...]) -> str:
    canonical = _canonical(text)
    folded = canonical.translate(_FOLD)
    if not any(rx.search(folded) for rx in rxs):
        return text  # fast path: the original is kept byte for byte
    cleaned = canonical
    # Removal can splice a new tag together ("<untr<untrusted_content>usted_content>",
    # "&l<untrusted_content>t;", "<|im_<|x|>end|>"), so remove and re-read until stable.
    for _ in range(_MAX_PASSES):
        current, folded = cleaned, cleaned.translate(_FOLD)
        for rx in rxs:
            current, folded = _cut(rx, current, folded)
        updated = _canonical(current)
        if updated == cleaned:
            return cleaned
        cleaned = updated
    return _LAST_RESORT_RX.sub(" ", cleaned)


def strip_wrapper_tags(text: str) -> str:
    """Remove anything that reads as an opening or closing wrapper tag, in any spelling."""
    return _defang(text, (_F_TAG, _F_HALF))


def strip_control_tokens(text: str) -> str:
    """Remove anything that reads as a chat-template control token, in any spelling."""
    return _defang(text, (_F_TOKEN,))


def defang(text: str) -> str:
    """Both at once (a removal of one kind can splice the other together)."""
    return _defang(text, (_F_TOKEN, _F_TAG, _F_HALF))


def _attr(value: str) -> str:
    return re.sub(r"[^a-z0-9_.:-]", "_", value.lower())[:40] or "unknown"


def wrap_untrusted(text: str, source: str) -> str:
    """`<untrusted_content source="...">text</untrusted_content>` with the text defanged."""
    body = defang(text)
    return f'<{TAG} source="{_attr(source)}">\n{body}\n</{TAG}>'
