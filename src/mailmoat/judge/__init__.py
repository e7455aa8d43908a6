"""The judge: one message in, four numbers and a reason out (never a lane).

cascade   the scorer cascade: model scorers in order, the local scorer when none answers
llm       the LLM judge over any OpenAI-compatible endpoint (openai imported lazily)
config    the LLM configuration (providers, models, budget) and its ConfigError
contract prompt examples   the model's output contract, the prompt, few-shot examples
state pricing failures status heal   metering, budget, cooldowns, health, re-judging

May import: core/, store/, learn/ (few-shot examples, sender facts). Never act/, eval/,
services/ or entrypoints/; no CLI (entrypoints/cli/judge.py) and no jobs.
"""
