"""Questions about a row's place in a list that numbers none (`tasks.positions`)."""

from __future__ import annotations

import dataclasses

from phoneworld.spec.check import check
from phoneworld.spec.parse import parse
from phoneworld.tasks import make_demo, synthesize_tasks
from phoneworld.tasks.instances import draw

_APP = """
app moons {
  package "com.example.moons"
  title "Moons"
  screen_size 1080 x 2400
  start home
  source "test"
}

content phase(id int, ctx int, phase_name text, phase_time text) {
  (1, null, "New Moon", "2023-10-15 01:55")
  (2, null, "Waxing Crescent", "2023-10-18 21:48")
  (3, null, "First Quarter", "2023-10-22 11:29")
  (4, null, "New Moon", "2023-11-13 17:27")
}

screen home P0 {
  package "com.example.moons"
  activity "com.example.moons.Main"
  modules list
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Moon Phases"
    view RecyclerView [0,300,1080,2100] as phases list phase pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as phase_item {
        view TextView [40,320,700,400] id "com.example.moons:id/phase_name" text item.phase_name
        view TextView [40,400,700,480] id "com.example.moons:id/phase_time" text item.phase_time
      }
    }
  }
}
"""


def _app(text: str = _APP):
    spec = parse(text)
    check(spec)
    return dataclasses.replace(spec, tasks=synthesize_tasks(spec))


def _positions(spec):
    return {t.name: t for t in spec.tasks if t.name.startswith(("at_position_",
                                                                   "position_of_"))}


def test_a_counted_list_is_asked_by_place_both_ways_and_each_demo_verifies():
    spec = _app()
    found = _positions(spec)
    assert set(found) == {"at_position_phase", "position_of_phase"}
    at = draw(spec, found["at_position_phase"])
    assert len(at) == 4  # entries 1 to 4, "New Moon" twice
    assert all("Moon Phases" in i.instruction for i in at)
    of = draw(spec, found["position_of_phase"])
    # "New Moon" is entry 1 and entry 4: it has no one place, and is not asked.
    assert sorted(i.params[found["position_of_phase"].params[0].name] for i in of) == \
        ["First Quarter", "Waxing Crescent"]
    for i in at + of:
        demo = make_demo([spec], i)
        assert demo is not None and demo.verified, i.instruction
    third = next(i for i in of if "First Quarter" in i.instruction)
    assert {"action_type": "answer", "text": "3"} in make_demo([spec], third).actions


def test_no_place_is_asked_where_a_row_can_go_or_the_list_is_cut():
    # A row the app deletes moves the others up: no place is fixed.
    deletes = _APP.replace("content phase(", "state phase(").rstrip() + \
        "\non home.phase_item long_press -> stay {\n  delete phase where id == item.id\n}\n"
    assert not _positions(_app(deletes))
    # A list of the rows under one parent row shows a part of its table.
    part = _APP.replace("as phases list phase pitch", "as phases list phase where "
                        "item.ctx == 1 pitch")
    assert not _positions(_app(part))
    # A screen with no name gives the list none to ask by, but the screen the app opens
    # on, where that list is the one there.
    unnamed = _app(_APP.replace('text "Moon Phases"', 'text "21"'))
    said = [i.instruction for t in _positions(unnamed).values() for i in draw(unnamed, t)]
    assert len(said) == 6 and all("the app opens with" in x or "the app's first screen" in x
                                  for x in said)
    # Section headings among entries (a heading shows its name alone, entries more):
    # counted or not, as a person likes.
    headed = _APP.replace('(1, null, "New Moon", "2023-10-15 01:55")',
                          '(1, null, "October", "")')
    assert not _positions(_app(headed))
    # Most names shared (cards all headed alike): the place names no one row.
    alike = _APP.replace('"Waxing Crescent"', '"New Moon"')
    assert not _positions(_app(alike))
    # A second list down the screen: "the list on Moon Phases" says neither.
    two = _APP.replace("screen home P0 {", """content planet(id int, ctx int, planet_name text) {
  (1, null, "Mars")
  (2, null, "Venus")
  (3, null, "Saturn")
}

screen home P0 {""").replace("    view RecyclerView [0,300", """\
    view RecyclerView [0,2100,1080,2300] as planets list planet pitch 300 horizontal {
      view TextView [0,2100,300,2300] as planet_item text item.planet_name
    }
    view RecyclerView [0,300""")
    assert not _positions(_app(two.replace("pitch 300 horizontal", "pitch 300 vertical")))
    # A strip of tabs across the top is no list a person counts: the one down the screen
    # is still "the list".
    assert set(_positions(_app(two))) == {"at_position_phase", "position_of_phase"}


_TWO_LISTS = """
app people {
  package "com.example.people"
  title "People"
  screen_size 1080 x 2400
  start chats
  source "test"
}

content chat(id int, ctx int, chat_name text) {
  (1, null, "Cara")
  (2, null, "Ben")
  (3, null, "Alice")
}

content person(id int, ctx int, person_name text) {
  (1, null, "Alice")
  (2, null, "Ben")
  (3, null, "Cara")
  (4, null, "Dan")
}

screen chats P0 {
  package "com.example.people"
  activity "com.example.people.Main"
  modules list
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Chats"
    view Button [700,100,1040,180] as contacts_button text "Contacts" clickable
    view RecyclerView [0,300,1080,2100] as chat_list list chat pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as chat_item {
        view TextView [40,320,700,400] id "com.example.people:id/chat_name" text item.chat_name
      }
    }
  }
}

screen contacts P0 {
  package "com.example.people"
  activity "com.example.people.Contacts"
  modules list
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Contacts"
    view RecyclerView [0,300,1080,2100] as person_list list person pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as person_item {
        view TextView [40,320,700,400] id "com.example.people:id/person_name" text item.person_name
      }
    }
  }
}

on chats.contacts_button tap -> contacts x1
on contacts.back back -> back x1
"""


def test_a_place_is_answered_on_the_list_it_is_asked_of():
    """"At which position is Ben in the list on Contacts?": Ben's chat on the first
    screen is no place in Contacts; the demo opens Contacts before it answers."""
    spec = _app(_TWO_LISTS)
    task = _positions(spec)["position_of_person"]
    ben = next(i for i in draw(spec, task) if "Ben" in i.instruction)
    demo = make_demo([spec], ben)
    assert demo is not None and demo.verified
    acts = [a["action_type"] for a in demo.actions]
    assert {"action_type": "answer", "text": "2"} in demo.actions
    assert acts.index("click") < acts.index("answer")  # a tap on “Contacts” first


def test_the_entry_at_a_place_is_read_off_the_list_it_is_asked_of():
    """"Which entry is number 1 in the list on Contacts?": Alice, whose chat the first
    screen shows third; the demo opens Contacts, where she is first, before it answers
    (the condition says where she stands: `k == count(person where id <= k)`)."""
    spec = _app(_TWO_LISTS)
    task = _positions(spec)["at_position_person"]
    first = next(i for i in draw(spec, task) if dict(i.params)["k"] == 1)
    demo = make_demo([spec], first)
    assert demo is not None and demo.verified
    acts = [a["action_type"] for a in demo.actions]
    assert {"action_type": "answer", "text": "Alice"} in demo.actions
    assert "click" in acts[:acts.index("answer")]  # a tap on “Contacts” first
