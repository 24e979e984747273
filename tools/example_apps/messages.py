"""`com.example.messages`: conversations, threads, a contact picker and a contacts tab."""

from __future__ import annotations

from dataclasses import dataclass, field

from .app import App, Route
from .views import (
    MARGIN,
    WIDTH,
    View,
    action_slot,
    alert_dialog,
    button,
    group,
    image,
    image_button,
    label,
    linear,
    text_width,
    toolbar,
    vlist,
)

AREA = (0, 63, WIDTH, 2337)
CONTACTS = {
    "alice": ("Alice Chen", "+1 415-555-0101"),
    "ben": ("Ben Okafor", "+1 415-555-0112"),
    "carla": ("Carla Gomez", "+1 415-555-0123"),
    "dad": ("Dad", "+1 415-555-0134"),
    "diego": ("Diego Ramirez", "+1 415-555-0137"),
    "emma": ("Emma Wilson", "+1 415-555-0145"),
    "grace": ("Grace Kim", "+1 415-555-0156"),
    "mom": ("Mom", "+1 415-555-0178"),
    "noah": ("Noah Brown", "+1 415-555-0189"),
    "priya": ("Priya Patel", "+1 415-555-0192"),
    "sam": ("Sam Rivera", "+1 415-555-0163"),
    "dental": ("Sunrise Dental", "+1 415-555-0199"),
    "tom": ("Tom Fischer", "+1 415-555-0170"),
}
UNKNOWN = "+1 650-555-0142"
IN, OUT = False, True
# (contact, unread, [(outgoing, text, day, time)]), most recent first.
CONVERSATIONS = [
    ("mom", 2, [(IN, "Are you coming for dinner on Sunday?", "Yesterday", "6:40 PM"),
                (OUT, "Yes! What time?", "Yesterday", "6:52 PM"),
                (IN, "Dinner is at 6:30. Bring dessert if you can", "Today", "7:48 AM"),
                (IN, "Dad says hi", "Today", "7:49 AM")]),
    ("alice", 1, [(OUT, "Are we still on for tonight?", "Today", "7:20 AM"),
                  (IN, "Yes! Table for two at Luigi's", "Today", "7:31 AM"),
                  (IN, "Meet you there?", "Today", "7:32 AM")]),
    ("sam", 0, [(IN, "Are you around on Saturday?", "Jun 2", "10:14 AM"),
                (OUT, "Yes, what's up?", "Jun 2", "10:30 AM"),
                (IN, "Could you help me move the couch?", "Jun 2", "10:31 AM"),
                (OUT, "Sure, I'll be there at noon", "Jun 2", "10:40 AM"),
                (IN, "I'm away this weekend, could you water my plants?", "Yesterday",
                 "5:02 PM"),
                (OUT, "Sure, no problem", "Yesterday", "5:10 PM"),
                (IN, "Thank you!! The door code is 4821", "Yesterday", "5:11 PM"),
                (IN, "The watering can is under the sink", "Yesterday", "5:11 PM"),
                (OUT, "How much water do they need?", "Yesterday", "5:20 PM"),
                (IN, "Half a can for the big ones, a splash for the cactus", "Yesterday",
                 "5:24 PM"),
                (IN, "And could you grab my mail too? The key is on the hook", "Yesterday",
                 "5:25 PM"),
                (OUT, "Will do", "Yesterday", "5:31 PM"),
                (IN, "You're the best", "Yesterday", "5:32 PM"),
                (OUT, "Plants are watered and the mail is on your table", "Today", "7:05 AM"),
                (IN, "Amazing, thank you! I owe you dinner", "Today", "7:40 AM")]),
    ("dental", 1, [(IN, "Reminder: your cleaning is on Thu, Jun 13 at 2:30 PM. Reply C to "
                        "confirm or call us to reschedule.", "Yesterday", "9:00 AM")]),
    ("ben", 0, [(IN, "Did you see the game last night?!", "Mon", "8:15 PM"),
                (OUT, "That last goal was unreal", "Mon", "8:20 PM")]),
    ("emma", 0, [(IN, "Can you send me the slides from today?", "Mon", "4:02 PM"),
                 (OUT, "Sent them to your email", "Mon", "4:30 PM"),
                 (IN, "Got them, thanks!", "Mon", "4:41 PM")]),
    ("grace", 0, [(OUT, "Happy birthday, Grace!", "Sun", "10:03 AM"),
                  (IN, "Thank you!! Drinks on Friday?", "Sun", "11:20 AM")]),
    ("dad", 0, [(IN, "Can you call me when you get a chance?", "Sat", "2:14 PM"),
                (OUT, "Will do", "Sat", "2:30 PM")]),
    ("diego", 0, [(IN, "Here's the address for Saturday: 221 Pine St", "Jun 5", "6:10 PM"),
                  (OUT, "Got it, see you there", "Jun 5", "6:12 PM")]),
    ("carla", 0, [(OUT, "Thanks for the book recommendation", "Jun 3", "9:45 PM"),
                  (IN, "Let me know what you think!", "Jun 3", "9:50 PM")]),
    ("noah", 0, [(IN, "Your package was left at the front desk", "May 30", "1:05 PM")]),
    (UNKNOWN, 1, [(IN, "Get 50% off your next car wash this week only! Reply STOP to opt out",
                   "May 29", "11:00 AM")]),
]


@dataclass
class Conversation:
    contact: str
    unread: int
    messages: list[tuple[bool, str, str, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return CONTACTS[self.contact][0] if self.contact in CONTACTS else self.contact

    def stamp(self) -> str:
        day, time = self.messages[-1][2], self.messages[-1][3]
        return time if day == "Today" else day


def _bubble_lines(text: str) -> int:
    return 1 + len(text) // 30


class MessagesApp(App):
    package = "com.example.messages"
    activities = {"home": ".ConversationListActivity", "thread": ".ConversationActivity",
                  "new": ".NewConversationActivity", "contact": ".ContactDetailActivity"}

    def __init__(self, clock) -> None:
        super().__init__(clock)
        self.route.params.update(tab="chats", selected=None)
        self.conversations = [Conversation(c, n, list(m)) for c, n, m in CONVERSATIONS]

    def conversation(self, contact: str) -> Conversation | None:
        return next((c for c in self.conversations if c.contact == contact), None)

    # -- state changes ------------------------------------------------------------------

    def back(self) -> None:
        params = self.route.params
        if self.dialog is None and self.route.name == "home" and params["selected"]:
            params["selected"] = None
        elif self.dialog is None and self.route.name == "home" and params["tab"] != "chats":
            params["tab"] = "chats"
        else:
            super().back()

    def open_thread(self, contact: str, replace: bool = False):
        def handler() -> None:
            if replace:
                self.stack.pop()
            conv = self.conversation(contact)
            if conv is not None:
                conv.unread = 0
            self.go("thread", contact=contact)
        return handler

    def send(self) -> None:
        contact = self.route.params["contact"]
        text = self.fields.get(f"compose:{contact}", "").strip()
        if not text:
            return
        conv = self.conversation(contact)
        if conv is None:
            conv = Conversation(contact, 0)
        else:
            self.conversations.remove(conv)
        self.conversations.insert(0, conv)
        conv.messages.append((OUT, text, "Today", self.clock.label()))
        self.fields[f"compose:{contact}"] = ""
        self.route.scroll.clear()

    def delete_selected(self) -> None:
        contact = self.route.params["selected"]
        self.conversations = [c for c in self.conversations if c.contact != contact]
        self.route.params["selected"] = None
        self.dialog = None

    def set_param(self, **params):
        def handler() -> None:
            self.route.params.update(params)
        return handler

    def ask_delete(self) -> None:
        name = self.conversation(self.route.params["selected"]).name

        def cancel() -> None:
            self.dialog = None
        self.dialog = lambda: alert_dialog(
            "Delete this conversation?",
            f"Your conversation with {name} will be permanently deleted from this device.",
            [("Delete", self.delete_selected), ("Cancel", cancel)])

    # -- screens ------------------------------------------------------------------------

    def screen_home(self, route: Route) -> View:
        tab, selected = route.params["tab"], route.params["selected"]
        if selected:
            bar = toolbar("1 selected", up=self.set_param(selected=None), rid="selection_toolbar",
                          actions=[image_button(action_slot(0, 2), "Archive",
                                                rid="action_archive"),
                                   image_button(action_slot(1, 2), "Delete", rid="action_delete",
                                                on_tap=self.ask_delete)])
        else:
            bar = toolbar("Messages", actions=[
                image_button(action_slot(0, 2), "Search conversations", rid="action_search"),
                image_button(action_slot(1, 2), "More options", rid="action_overflow")])
        tabs = []
        for i, (tab_id, text) in enumerate((("chats", "Chats"), ("contacts", "Contacts"))):
            x1, x2 = i * 540, (i + 1) * 540
            tabs.append(linear((x1, 210, x2, 336),
                               label(text, (x1 + x2 - text_width(text, 14)) // 2, 247, sp=14),
                               desc=text, clickable=True, selected=tab == tab_id,
                               key=f"tab:{tab_id}", on_tap=self.set_param(tab=tab_id,
                                                                          selected=None)))
        strip = View("android.widget.HorizontalScrollView", (0, 210, WIDTH, 336), rid="tabs",
                     children=[linear((0, 210, WIDTH, 336), *tabs)], scrollable=True)
        body = self._chats(route) if tab == "chats" else self._contacts(route)
        return group(AREA, bar, strip, *body, rid="coordinator")

    def _chats(self, route: Route) -> list[View]:
        selected = route.params["selected"]
        items = []
        for conv in self.conversations:
            def build(y: int, conv=conv) -> View:
                out, text = conv.messages[-1][:2]
                snippet = ("You: " if out else "") + text
                if len(snippet) > 34:
                    snippet = snippet[:33].rstrip() + "…"
                kids = [image((MARGIN, y + 37, 183, y + 173), rid="avatar",
                              desc="Selected" if selected == conv.contact else ""),
                        label(conv.name, 225, y + 42, sp=17, rid="conversation_name", right=860),
                        label(snippet, 225, y + 115, sp=15, rid="conversation_snippet",
                              right=940),
                        label(conv.stamp(), 0, y + 47, sp=13, rid="conversation_timestamp",
                              right=1033, align_right=True)]
                if conv.unread:
                    kids.append(label(str(conv.unread), 985, y + 118, sp=12,
                                      rid="unread_badge"))
                return group((0, y, WIDTH, y + 210), *kids, rid="conversation_item",
                             clickable=True, long_clickable=True,
                             selected=selected == conv.contact, key=f"conv:{conv.contact}",
                             on_tap=self.open_thread(conv.contact),
                             on_long_press=self.set_param(selected=conv.contact))
            items.append((210, build))
        views = [vlist("conversation_list", (0, 336, WIDTH, 2337), items, route.scroll)]
        if not selected:
            views.append(button((604, 2122, 1033, 2290), "Start chat", rid="start_chat_fab",
                                on_tap=self._new_conversation))
        return views

    def _new_conversation(self) -> None:
        self.fields["recipient"] = ""
        self.go("new")
        self.focus = "recipient"

    def _contact_items(self, contacts: list[str], on_tap) -> list:
        def item(cid: str):
            name, phone = CONTACTS[cid]
            return (189, lambda y: linear(
                (0, y, WIDTH, y + 189), image((MARGIN, y + 31, 173, y + 157), rid="avatar"),
                label(name, 215, y + 37, sp=17, rid="contact_name", right=1033),
                label(phone, 215, y + 108, sp=14, rid="contact_number"),
                rid="contact_item", clickable=True, key=f"contact:{cid}", on_tap=on_tap(cid)))
        return [item(c) for c in contacts]

    def _matching(self, field_id: str) -> list[str]:
        query = self.fields.get(field_id, "").strip().lower()
        return [c for c, (name, phone) in sorted(CONTACTS.items(), key=lambda kv: kv[1][0])
                if query in name.lower() or query in phone.replace("-", "")]

    def _contacts(self, route: Route) -> list[View]:
        search = self.edit_text("contact_search", (MARGIN, 357, 1033, 483), "Search contacts",
                                rid="contact_search")
        found = self._matching("contact_search")
        return [search, vlist("contact_list", (0, 504, WIDTH, 2337),
                              self._contact_items(found, self._open_contact), route.scroll)]

    def _open_contact(self, cid: str):
        def handler() -> None:
            self.go("contact", id=cid)
        return handler

    def screen_new(self, route: Route) -> View:
        to = linear((0, 210, WIDTH, 357), label("To", MARGIN, 252, sp=16),
                    self.edit_text("recipient", (152, 231, 1033, 336),
                                   "Type a name, phone number or email",
                                   rid="recipient_text_view"), rid="recipient_bar")
        found = self._matching("recipient")
        return group(AREA, toolbar("New conversation", up=self.back), to,
                     label("All contacts" if not self.fields.get("recipient") else
                           "Contacts", MARGIN, 378, sp=14, rid="section_title"),
                     vlist("contact_list", (0, 441, WIDTH, 2337),
                           self._contact_items(found, lambda c: self.open_thread(c, True)),
                           route.scroll), rid="coordinator")

    def screen_thread(self, route: Route) -> View:
        contact = route.params["contact"]
        conv = self.conversation(contact)
        name, phone = CONTACTS.get(contact, (contact, ""))
        items = []
        day = None
        for out, text, when, time in (conv.messages if conv else []):
            if when != day:
                day = when
                items.append((105, lambda y, when=when: label(
                    when, (WIDTH - text_width(when, 13)) // 2, y + 31, sp=13,
                    rid="date_header")))
            lines = _bubble_lines(text)
            height = 63 * lines + 126

            def build(y: int, out=out, text=text, time=time, lines=lines, height=height):
                w = min(800, max(text_width(text, 16), text_width(time, 12)) + 84)
                x1 = WIDTH - MARGIN - w if out else MARGIN
                x2 = x1 + w
                bubble = linear((x1, y + 16, x2, y + height - 16),
                                label(text, x1 + 42, y + 37, sp=16, rid="message_text",
                                      right=x2 - 42, lines=lines),
                                label(time, x1 + 42, y + 47 + 63 * lines, sp=12,
                                      rid="message_time"),
                                rid="message_bubble", long_clickable=True)
                return linear((0, y, WIDTH, y + height), bubble, rid="message_row")
            items.append((height, build))
        if not items:
            items.append((210, lambda y: label(f"Start a conversation with {name}", MARGIN,
                                               y + 63, sp=14, rid="empty_thread",
                                               right=1033)))
        field_id = f"compose:{contact}"
        typed = bool(self.fields.get(field_id))
        compose = linear((0, 2148, WIDTH, 2337),
                         image_button((16, 2174, 142, 2300), "Attach", rid="attach_button"),
                         self.edit_text(field_id, (158, 2169, 922, 2316), "Text message",
                                        rid="compose_message_text"),
                         image_button((933, 2174, 1064, 2300), "Send message",
                                      rid="send_message_button", enabled=typed,
                                      on_tap=self.send if typed else None),
                         rid="compose_bar")
        return group(AREA, toolbar(name, up=self.back, subtitle=phone if name != phone else "",
                                   actions=[image_button(action_slot(0, 2), "Call",
                                                         rid="action_call"),
                                            image_button(action_slot(1, 2), "More options",
                                                         rid="action_overflow")]),
                     vlist("message_list", (0, 210, WIDTH, 2148), items, route.scroll,
                           from_end=True), compose, rid="coordinator")

    def screen_contact(self, route: Route) -> View:
        cid = route.params["id"]
        name, phone = CONTACTS[cid]
        return group(AREA, toolbar("", up=self.back, actions=[
                         image_button(action_slot(0, 2), "Edit contact", rid="action_edit"),
                         image_button(action_slot(1, 2), "More options", rid="action_overflow")]),
                     image((351, 273, 729, 651), rid="contact_photo", desc=f"{name} photo"),
                     label(name, (WIDTH - text_width(name, 26)) // 2, 703, sp=26,
                           rid="contact_name"),
                     linear((0, 882, WIDTH, 1071), image((MARGIN, 934, 110, 997)),
                            label(phone, 163, 913, sp=17, rid="contact_phone"),
                            label("Mobile", 163, 987, sp=14, rid="contact_phone_type"),
                            rid="phone_row"),
                     button((MARGIN, 1113, 525, 1239), "Message", rid="message_button",
                            on_tap=self.open_thread(cid)),
                     button((555, 1113, 1033, 1239), "Call", rid="call_button"),
                     rid="coordinator")
