"""Server settings and a short recipe for the providers people use, for the web page that
adds an account. Data only: the page fills the form from a preset, the person can change
every field, and the registry validates what is saved as it does for `account add`.

The host names and ports are the providers' published IMAP and SMTP submission settings.
Mail from Gmail and Outlook.com / Microsoft 365 has not been tried against the live services
by this project (docs/mailboxes.md says so); the recipes say what each provider asks for.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preset:
    key: str
    label: str
    host: str
    port: int
    tls: str
    smtp_host: str
    smtp_port: int
    smtp_tls: str
    server_files_sent: bool  # the provider files submitted mail in Sent itself
    recipe: str  # what to do at the provider first, in a few plain sentences
    # XOAUTH2: the provider's published token endpoint and the scope its mail needs ("":
    # the provider is used with app passwords here).
    token_endpoint: str = ""
    scope: str = ""


PRESETS: tuple[Preset, ...] = (
    Preset("gmail", "Gmail / Google Workspace", "imap.gmail.com", 993, "implicit",
           "smtp.gmail.com", 587, "starttls", True,
           "Turn on 2-Step Verification, then create an app password (Google Account > "
           "Security > App passwords) and use it here with your full address as the login. "
           "Workspace admins may have to allow IMAP. For XOAUTH2 instead, create an OAuth "
           "client in Google Cloud, obtain a refresh token for the scope below with it "
           "(docs/mailboxes.md), and fill in the OAuth part of the form.",
           "https://oauth2.googleapis.com/token", "https://mail.google.com/"),
    Preset("outlook", "Outlook.com / Microsoft 365", "outlook.office365.com", 993, "implicit",
           "smtp.office365.com", 587, "starttls", True,
           "Microsoft has turned password logins off for IMAP on Outlook.com and on most "
           "Microsoft 365 tenants: use XOAUTH2 (an app registration with the "
           "IMAP.AccessAsUser.All and SMTP.Send permissions; obtain a refresh token with it, "
           "docs/mailboxes.md, and fill in the OAuth part of the form). Where your admin "
           "still allows app passwords, one works here.",
           "https://login.microsoftonline.com/common/oauth2/v2.0/token",
           "https://outlook.office.com/IMAP.AccessAsUser.All "
           "https://outlook.office.com/SMTP.Send offline_access"),
    Preset("fastmail", "Fastmail", "imap.fastmail.com", 993, "implicit",
           "smtp.fastmail.com", 465, "implicit", False,
           "Create an app password (Settings > Privacy & Security > App passwords) with IMAP "
           "and SMTP access, and log in with your full Fastmail address."),
    Preset("icloud", "iCloud Mail", "imap.mail.me.com", 993, "implicit",
           "smtp.mail.me.com", 587, "starttls", False,
           "Turn on two-factor authentication for your Apple Account, create an "
           "app-specific password (Apple Account > Sign-In and Security > App-Specific "
           "Passwords) and log in with your iCloud Mail address."),
    Preset("imap", "Another IMAP server", "", 993, "implicit", "", 587, "starttls", False,
           "Your provider's help pages list the IMAP server (usually port 993 with TLS) and "
           "the SMTP submission server (587 with STARTTLS, or 465 with TLS). Leave SMTP empty "
           "to read mail only; mailmoat then sends nothing."),
)


def preset(key: str) -> Preset | None:
    return next((p for p in PRESETS if p.key == key), None)
