"""Recorded sessions of the messages app: what a user did, step by step."""

from __future__ import annotations

from .messages import MessagesApp
from .recorder import Session, registry

APP = MessagesApp
TRACES: list = []
trace = registry(TRACES)


@trace("reply_to_alice", "Tell Alice Chen that I'll meet her there at 7 and ask her to save "
                         "me a seat.")
def _(s: Session) -> None:
    s.tap("conv:alice")
    s.tap("compose:alice")
    s.type("compose:alice", "Sure, see you there at 7")
    s.tap("send_message_button")
    s.tap("compose:alice")
    s.type("compose:alice", "Save me a seat!")
    s.tap("send_message_button")
    s.key("back")


@trace("new_conversation_priya", "Send Priya Patel a message saying 'Happy birthday, Priya!'")
def _(s: Session) -> None:
    s.tap("start_chat_fab")
    s.type("recipient", "pri")
    s.tap("contact:priya")
    s.tap("compose:priya")
    s.type("compose:priya", "Happy birthday, Priya!")
    s.tap("send_message_button")
    s.key("back")


@trace("delete_car_wash_spam", "Delete the conversation with +1 650-555-0142.")
def _(s: Session) -> None:
    s.scroll("conversation_list", "down")
    s.long_press("conv:+1 650-555-0142")
    s.tap("action_delete")
    s.tap("dialog:Cancel")
    s.tap("action_delete")
    s.tap("dialog:Delete")


@trace("door_code_from_sam", "What is the door code Sam sent me?")
def _(s: Session) -> None:
    s.tap("tab:contacts")
    s.scroll("contact_list", "down")
    s.tap("contact:sam")
    s.tap("message_button")
    s.scroll("message_list", "up")
    s.scroll("message_list", "up")
    s.answer("4821")


@trace("tom_phone_number", "What is Tom Fischer's phone number?")
def _(s: Session) -> None:
    s.tap("tab:contacts")
    s.scroll("contact_list", "down")
    s.tap("contact:noah")
    s.key("back")
    s.tap("contact:tom")
    s.answer("+1 415-555-0170")


@trace("text_ben_from_contacts", "Text Ben Okafor 'Running 10 minutes late' from his contact "
                                 "page.")
def _(s: Session) -> None:
    s.tap("tab:contacts")
    s.tap("contact_search")
    s.type("contact_search", "ben")
    s.tap("contact:ben")
    s.tap("message_button")
    s.tap("compose:ben")
    s.type("compose:ben", "Running 10 minutes late")
    s.tap("send_message_button")
    s.key("back")
    s.key("back")
    s.tap("tab:chats")


@trace("reply_to_mom_dessert", "Reply to Mom that I'll bring dessert on Sunday.")
def _(s: Session) -> None:
    s.tap("conv:mom")
    s.scroll("message_list", "up")
    s.scroll("message_list", "down")
    s.tap("compose:mom")
    s.type("compose:mom", "I'll bring dessert on Sunday!")
    s.tap("send_message_button")
    s.key("back")
