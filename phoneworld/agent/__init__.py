"""What agents read and write, whatever runs the app (a mock, a served app, a phone).

    from phoneworld.agent.formats import from_phonebuddy, to_phonebuddy
    from phoneworld.agent.parse import parse_action
    from phoneworld.agent.elements import format_elements

Modules: `formats` (AndroidWorld JSON actions <-> PhoneBuddy tool calls), `parse`
(actions out of a model's raw text), `elements` (a screen's element list as text). The
env, the tasks' demos and the device recorder all speak these, so they live below them.
"""
