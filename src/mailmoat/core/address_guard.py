"""Which network addresses a mail account may reach (the multi-user abuse guard).

Pure: the caller resolves the host and hands every resolved address in, at connect time,
so a name that re-resolves to a private address later is still refused.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """`multi_user` off: anything goes (one person's own machine). On: only public
    addresses, plus whatever the operator allow-listed."""

    multi_user: bool = False
    allow: tuple[IPNetwork, ...] = ()


def parse_allow_list(text: str) -> tuple[IPNetwork, ...]:
    """Comma-separated addresses or networks, e.g. "127.0.0.1, 10.0.0.0/8"."""
    networks: list[IPNetwork] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError as exc:
            raise ValueError(f"not an address or network in the allow-list: {part!r}") from exc
    return tuple(networks)


def is_internal(address: IPAddress) -> bool:
    """Loopback, link-local, private, unspecified, reserved or multicast: not the internet."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return is_internal(address.ipv4_mapped)
    return (
        address.is_loopback
        or address.is_link_local
        or address.is_private
        or address.is_unspecified
        or address.is_reserved
        or address.is_multicast
        or not address.is_global
    )


def refused_address(policy: AddressPolicy, addresses: Iterable[str]) -> str | None:
    """The first resolved address the policy refuses, or None when all may be reached."""
    if not policy.multi_user:
        return None
    for text in addresses:
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if is_internal(address) and not any(address in net for net in policy.allow):
            return text
    return None
