"""A small mail app for the virtual device with a lock option (`{LOCK}`: the `device` keys
lock_after_actions / lock_secure), shared by the keyguard tests in-process and over adb."""

from __future__ import annotations

from pathlib import Path

MAIL = "com.example.mail"
APP = """
app: {package: com.example.mail, name: Mail, launch: feed}
device: {LOCK}
variables:
  read: false
screens:
  - id: feed
    activity: .FeedActivity
    title: Mail
    elements:
      - {class: Button, id: btn_inbox, text: Open inbox, on_tap: [{go: inbox}]}
  - id: inbox
    activity: .InboxActivity
    title: Inbox
    elements:
      - {class: Button, id: btn_read, text: Mark all read, on_tap: [{set: {read: true}}]}
      - {class: EditText, id: et_search, hint: Search}
      - {class: TextView, id: tv_state, text: Inbox zero, when: read}
"""


def write_mail_app(where: Path, lock: str = "") -> Path:
    """The app model as `where/mail.yaml`, locking as `lock` says (e.g. "lock_after_actions: 2")."""
    app = where / "mail.yaml"
    app.write_text(APP.replace("{LOCK}", "{" + lock + "}"), encoding="utf-8")
    return app
