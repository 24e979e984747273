"""How tasks are worded: several phrasings per kind of goal, and how they combine.

A template's instruction holds its phrasings separated by ` | `; an instance uses one of
them, picked by its id, with `{param}` holes filled (see `wording`, which picks and fills
them):

    "What does {n} cost? | How much is {n}? | Tell me the price of {n}."

Every phrase of one goal says the same thing; they differ only in wording, so that
instructions read like a person's requests rather than one fixed form: questions
(information goals), requests (state and navigation goals), and how two goals or two
apps combine into one instruction.
"""

from __future__ import annotations

# Questions about one fact of a named thing, by the sort of fact (`schema.FACTS`): full
# questions, then the noun phrase a combined instruction uses ("tell me {object}").
QUESTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "price": (("How much does {n} cost?", "What is the price of {n}?",
               "Find the price of {n} for me.", "Look up how much {n} costs."),
              "the price of {n}"),
    "amount": (("What is the {label} of {n}?", "Find the {label} of {n} for me.",
                "Tell me the {label} for {n}."),
               "the {label} of {n}"),
    "count": (("How many {unit} does {n} have?", "How many {unit} are listed under {n}?",
               "Tell me how many {unit} there are in {n}."),
              "how many {unit} {n} has"),
    "quantity": (("What quantity of {n} is listed?", "How many of {n} are there?",
                  "Check the quantity of {n}."),
                 "the quantity of {n}"),
    "size": (("What size does {n} come in?", "What is the {label} of {n}?",
              "Find out how big a pack of {n} is."),
             "the {label} of {n}"),
    "status": (("What is the status of {n}?", "Check the status of {n}.",
                "Tell me what status {n} has."),
               "the status of {n}"),
    "time": (("What {label} is shown for {n}?", "Tell me the {label} given for {n}.",
              "Find the {label} next to {n}."),
             "the {label} shown for {n}"),
    "phone": (("What is {n}'s phone number?", "Find the phone number of {n}.",
               "Look up {n}'s number."),
              "the phone number of {n}"),
    "email": (("What is {n}'s email address?", "Find the email address of {n}."),
              "the email address of {n}"),
    "address": (("What is the address of {n}?", "Find the address for {n}."),
                "the address of {n}"),
    "snippet": (("What does the preview of the chat with {n} say?",
                 "What message preview is shown for {n}?",
                 "Read me the preview of the conversation with {n}."),
                "the message preview shown for {n}"),
    "summary": (("What does the {label} of {n} say?", "What is written under {n}?",
                 "Read me the {label} of {n}."),
                "the {label} of {n}"),
    "badge": (("Which badge does {n} have?", "What label is shown on {n}?",
               "Tell me the badge on {n}."),
              "the badge on {n}"),
    "unread": (("How many unread messages are there from {n}?",
                "How many messages from {n} are unread?",
                "Check how many unread messages {n} has sent."),
               "how many unread messages {n} has"),
    "rating": (("What is {n} rated?", "What rating does {n} have?"),
               "the rating of {n}"),
}

TURN_ON = ("Turn on {n}.", "Switch {n} on.", "Enable {n}.", "Make sure {n} is turned on.")
TURN_OFF = ("Turn off {n}.", "Switch {n} off.", "Disable {n}.", "Make sure {n} is off.")
FLAG_ON = ("Turn on “{label}” on the {screen} screen.", "Open {screen} and switch “{label}” on.",
           "Go to {screen} and enable “{label}”.")
FLAG_OFF = ("Turn off “{label}” on the {screen} screen.", "Open {screen} and switch “{label}” off.",
            "Go to {screen} and disable “{label}”.")
STEP_TO = ("Set “{label}” to {value}.", "Change “{label}” to {value}.",
           "Make “{label}” {value}.")
"""A number the app steps (a font size) brought to one of its values."""
STEP_TO_UNDER = ("Tap “{row}” and set “{label}” to {value}.",
                 "Open “{row}” and change “{label}” to {value}.",
                 "Go to “{row}” and make “{label}” {value}.")
"""The same on a screen one row opens (see `FLAG_ON_UNDER`)."""
CHOOSE = ("Set {n} to {o}.", "Change {n} to {o}.", "Choose {o} for {n}.")
"""A dialog's option for the row it was opened on ("Set Theme to Dark Theme.")."""
SELECT = ("Select {o} for {n}.", "Choose {o} under {n}.", "Set {n} to {o}.")
"""An option a single-choice dialog ticks for the row it was opened on, which shows it
nowhere else ("Select Planets for Planetary hours indicator style.")."""
SELECTED = (("What is {n} set to?", "Which option is selected for {n}?",
             "Tell me which option is ticked for {n}."),
            "what {n} is set to")
"""The option a single-choice dialog shows ticked for the row it was opened on."""
FLAG_ON_UNDER = ("Tap “{row}” and turn on “{label}”.", "Open “{row}” and switch “{label}” on.",
                 "Go to “{row}” and make sure “{label}” is on.")
FLAG_OFF_UNDER = ("Tap “{row}” and turn off “{label}”.",
                  "Open “{row}” and switch “{label}” off.",
                  "Go to “{row}” and make sure “{label}” is off.")
"""A switch on a screen that one row opens and nothing names otherwise (wikipedia's
theme sheet under Settings' “App theme”): said with the row, as a person finds it, each
starting with a verb of ours (a clause of a composite starts in lower case)."""
OPEN_CALLED = ("Open the {screen} page.", "Go to the {screen} page.",
               "Navigate to the {screen} screen.")
"""A page titled by what it asks for (`wording.Called`: 下载QQ): a page, quoted."""
FLAG_ON_HERE = ("Turn on “{label}”.", "Switch “{label}” on.", "Make sure “{label}” is on.")
FLAG_OFF_HERE = ("Turn off “{label}”.", "Switch “{label}” off.",
                 "Make sure “{label}” is off.")
ADD = ("Add {n} to {where}.", "Put {n} in {where}.", "Please add {n} to {where}.")
SEND = ("Send “{m}” to {n}.", "Text {n}: “{m}”.", "Write “{m}” to {n} and send it.")
POST = ("Post “{m}” on {n}.", "Write “{m}” for {n} and submit it.",
        "Add the text “{m}” to {n}.")
REMOVE = ("Remove {n} from {where}.", "Take {n} out of {where}.",
          "Delete {n} from {where}.")
TAP_AWAY = ("Tap {n} in {where}.", "Press {n} in {where}.", "Select {n} in {where}.")
"""A row that a tap on it takes off its list (uber's “Allow location access” among the
place suggestions): a person taps it; the checker sees it gone."""
TAP_AWAY_ALONE = ("Tap {n}.", "Press {n}.", "Select {n}.")
"""The same in a list with no name of its own (uber's places, on a page that opens from
its “Confirm Destination” button and has no title): the row's name says which; "in the
list" says nothing of which list."""
OPEN = ("Open {screen}.", "Go to {screen}.", "Show me {screen}.",
        "Navigate to the {screen} screen.")
PRESS = ("Tap “{button}”.", "Press “{button}”.", "Tap the “{button}” button.")
"""Reaching a screen named only by the button that opens it ("START +10 XP")."""
OPEN_ROW = ("Open {n}.", "Tap {n} to open it.", "Show me {n}.", "Go to {n}.")
OPEN_CHOICES = ("Open the choices for {n}.", "Tap {n} to see its options.",
                "Bring up the options for {n}.")
"""A row that opens a dialog of options (a settings row's single choice: "Language"): a
person opens a dialog, they do not go to it ("Show me Language." reads as a place)."""
OPEN_DIALOG = ("Tap {n}.", "Tap {n} to open its dialog.", "Open the dialog for {n}.")
"""A row that opens a dialog that lists nothing of its own (a confirmation, a form)."""
OPEN_ENTRY = ("Open the entry {n}.", "Tap the entry {n} to open it.",
              "Find the entry {n} and open it.")
"""A row whose name is a sentence (a to-do item, a tip): an entry of a list, no place
(quoted by `fill` as a sentence is, and so without a space recorded at its end)."""
EDIT_ROW = ("Open {n} for editing.", "Start editing {n}.", "Bring up the editor for {n}.")
"""A row opened in a form that shows it in a field to change (a to-do item's editor)."""
EDIT_ENTRY = ("Open the entry {n} for editing.", "Start editing the entry {n}.",
              "Bring up the editor for the entry {n}.")
"""A row of sentences opened in such a form: an entry, as `OPEN_ENTRY` says, never a
sentence read as a name ("Open “Access the settings from the ⌄ button” for editing")."""
OPEN_ROW_BY = ("Open “{button}” on the {n} row.", "Tap “{button}” on the {n} row.",
               "Press “{button}” on the {n} row.")
"""A row's own button that opens a screen for the row: the row is said to be one ("Open
“Menu” for Activity Launcher." reads as the app's menu where a row is named as the app
is)."""
# What a list row shows beside its name, by where it sits (`rowtexts._place`).
ROW_TEXT: dict[str, tuple[tuple[str, ...], str]] = {
    "under": (("What is written under {n}?", "What does the line under {n} say?",
               "Read me the text below {n}."),
              "what is written under {n}"),
    "next": (("What is shown next to {n}?", "What does it say beside {n}?",
              "Read me what is next to {n}."),
             "what is shown next to {n}"),
    "row": (("What else is shown on the {n} row?", "Besides its name, what does the {n} "
             "entry say?"),
            "what else the {n} row shows"),
    # a column that numbers the rows as listed (a chart's or a playlist's 1, 2, 3)
    "rank": (("What number is {n} in the list?", "At which number is {n} listed?",
              "Tell me the number shown for {n} in the list."),
             "at which number {n} is listed"),
}
PAIR_VALUE = (("What does “{label}” show for {n}?", "What is “{label}” for {n}?",
               "Read me what “{label}” shows for {n}."),
              "what “{label}” shows for {n}")
"""A row's text that is itself a label and a value ("Ends at: 2023-10-19 00:48:07"):
asked by its label, for the row named by `{n}`."""
PAIR_VALUE_BY = (("What does “{label}” show on the row with {n}?",
                  "On the row with {n}, what does “{label}” say?",
                  "Read me what “{label}” shows on the row with {n}."),
                 "what “{label}” shows on the row with {n}")
"""The same for a row called by another of its texts (`rowtexts._keyed_rows`: "On the row
with “Starts at: 2023-10-18 23:47:32”, what does “Ends at” say?")."""
RANK_ON = (("What number is {n} in the list on {screen}?",
            "At which number is {n} listed on {screen}?",
            "Tell me the number shown for {n} in the list on {screen}."),
           "at which number {n} is listed on {screen}")
"""The number a list gives a row, named by the screen of that list: "the list" says
nothing of which one (qqmusic's album 专辑, not "in the list")."""
AT_RANK = (("What is number {n} in the list on {screen}?", "Which entry is number {n} on {screen}?",
            "On {screen}, what is listed at number {n}?"),
           "what is listed at number {n} on {screen}")
"""The row a list numbers so (a playlist's 3), named by the screen of that list."""
AT_POSITION = (("What is entry number {n} in the list on {screen}?",
                "In the list on {screen}, which entry is number {n}?",
                "Which entry of the list on {screen} comes at position {n}?"),
               "which entry is number {n} in the list on {screen}")
"""The row at a place in a list that numbers none (`positions`), counted from its first
entry: "What is entry number 3 in the list on AeonDroid?"."""
POSITION_OF = (("At which position is {n} in the list on {screen}?",
                "In the list on {screen}, at which position is {n}?",
                "What position does {n} have in the list on {screen}?"),
               "the position of {n} in the list on {screen}")
"""The other way round: the place of a named row in its list."""
AT_POSITION_FIRST = (("What is entry number {n} in the list the app opens with?",
                      "In the list on the app's first screen, which entry is number {n}?",
                      "Which entry comes at position {n} in the list the app opens with?"),
                     "which entry is number {n} in the list the app opens with")
"""`AT_POSITION` for the one list of the screen the app opens on, where that screen has
no name (onelist's items, under a bar of lists and an input)."""
POSITION_OF_FIRST = (("At which position is {n} in the list the app opens with?",
                      "In the list on the app's first screen, at which position is {n}?",
                      "What position does {n} have in the list the app opens with?"),
                     "the position of {n} in the list the app opens with")
SWITCH_STATE = (("Is {n} on or off?", "Tell me whether {n} is on or off.",
                 "Check whether {n} is switched on or off."),
                "whether {n} is on or off")
"""A row's switch whose state its text says ("ON", "OFF")."""
FLAG_STATE = (("Is “{label}” on or off?", "Tell me whether “{label}” is on or off.",
               "Check whether “{label}” is switched on or off."),
              "whether “{label}” is on or off")
"""A switch of its own (no list row), named by what it says."""
FLAG_STATE_UNDER = (("Under “{row}”, is “{label}” on or off?",
                     "Tap “{row}” and tell me whether “{label}” is on or off.",
                     "Open “{row}” and check whether “{label}” is switched on or off."),
                    "whether “{label}” is on or off under “{row}”")
"""A switch's state on a screen one row opens (see `FLAG_ON_UNDER`)."""
FLAG_STATE_ON = (("On {screen}, is “{label}” on or off?",
                  "Tell me whether “{label}” is on or off on {screen}.",
                  "Go to {screen} and check whether “{label}” is switched on or off."),
                 "whether “{label}” is on or off on {screen}")
"""The same, where another screen has a switch that says the same."""
HEADED = (("What is written under “{head}” on {screen}?",
           "On {screen}, what does it say under “{head}”?",
           "Go to {screen} and read me the text under “{head}”."),
          "what is written under “{head}” on {screen}")
TITLED = (("What does “{head}” say?", "Read me what “{head}” says.",
           "Tell me the text of “{head}”."),
          "what “{head}” says")
BESIDE = (("What is shown next to “{head}” on {screen}?",
           "On {screen}, what does it say beside “{head}”?",
           "Go to {screen} and read me what is next to “{head}”."),
          "what is shown next to “{head}” on {screen}")
BESIDE_ANYWHERE = (("What is shown next to “{head}”?", "What does it say beside “{head}”?",
                    "Read me what is next to “{head}”."),
                   "what is shown next to “{head}”")
HEADED_VIA = (("Tap “{way}” and tell me what is written under “{head}”.",
               "What does it say under “{head}” once you tap “{way}”?",
               "Tap “{way}” and read me the text under “{head}”."),
              "what is written under “{head}” on the page “{way}” opens")
"""A text under a heading on a page with no name, reached by the one thing that opens it
(`screentexts.way_in`)."""
BESIDE_VIA = (("Tap “{way}” and tell me what is shown next to “{head}”.",
               "What does it say beside “{head}” once you tap “{way}”?",
               "Tap “{way}” and read me what is next to “{head}”."),
              "what is shown next to “{head}” on the page “{way}” opens")
HEADED_ANYWHERE = (("What is written under “{head}”?", "What does it say under “{head}”?",
                    "Read me the text under “{head}”."),
                   "what is written under “{head}”")
FORM_ON: dict[str, tuple[tuple[str, ...], str]] = {
    "email": (("What email address does {screen} give?",
               "Find the email address shown on {screen}.",
               "Tell me the email address on {screen}."),
              "the email address on {screen}"),
    "web": (("What web address does {screen} show?", "Find the web address shown on {screen}.",
             "Tell me the web address on {screen}."),
            "the web address on {screen}"),
    "version": (("Which version does {screen} show?",
                 "What version number is shown on {screen}?",
                 "Tell me the version shown on {screen}."),
                "the version shown on {screen}"),
}
"""A text known by its form (`patterns`), asked of the screen that shows it."""
FORM_ANYWHERE: dict[str, tuple[tuple[str, ...], str]] = {
    "email": (("What email address does the app give?",
               "Find the email address the app shows.",
               "Tell me the email address shown in the app."),
              "the email address the app gives"),
    "web": (("What web address does the app show?", "Find the web address the app shows.",
             "Tell me the web address shown in the app."),
            "the web address the app shows"),
    "version": (("Which version does the app show?", "What version number does the app show?",
                 "Tell me the version the app shows."),
                "the version the app shows"),
}
"""The same where the app shows one such text in all, on a screen with no name."""
COUNT_ENTRIES = (("How many entries does “{head}” list?",
                  "Open “{head}” and tell me how many entries it lists.",
                  "Count the entries listed in “{head}”."),
                 "how many entries “{head}” lists")
"""The rows a row's own page lists (a folder's files)."""
LISTED_UNDER = (("Which entry lists {x}?", "Under which entry is {x} listed?",
                 "Find the entry that lists {x}."),
                "which entry lists {x}")
"""The row whose own list shows a row (the folder a file is in), the other way round."""
COUNT_IN_FOLDER = (("How many items are in the folder “{head}”?",
                    "Open the folder “{head}” and tell me how many items it holds.",
                    "Count the items in the folder “{head}”."),
                   "how many items the folder “{head}” holds")
IN_FOLDER = (("Which folder holds {x}?", "In which folder is {x}?",
              "Find the folder that holds {x}."),
             "which folder holds {x}")
"""`COUNT_ENTRIES` and `LISTED_UNDER` where the rows that list others are folders: named
with the mark file lists give a folder, a trailing "/" (ajsha's “examples/”), so a
person reads "folder", not "entry"."""
COUNT_OPTIONS = (("How many options does “{head}” offer?",
                  "Open “{head}” and tell me how many options it offers.",
                  "Count the options of “{head}”."),
                 "how many options “{head}” offers")
"""The options a row's own single-choice dialog lists."""
ADD_TYPED_VIA = ("Use “{button}” to add “{m}” to {where}.",
                 "Tap “{button}” and add “{m}” to {where}.",
                 "Add “{m}” to {where} with “{button}”.")
"""Typed text added to a list shown elsewhere, typed where a button leads (a file saved
under a name, then listed by LOAD)."""
PICK = ("Set “{label}” to “{m}”.", "Change “{label}” to “{m}”.",
        "Pick “{m}” for “{label}”.")
"""A value a field holds, confirmed into the text beside a label (uber's arrival time:
"Set “Arrive by” to “3:15 PM”.")."""
SEARCH = ("Search for “{m}”.", "Look up “{m}” with the search.", "Find “{m}” using search.")
ENTER_SUBMIT = ("On {screen}, type “{m}” and press Enter.", "Enter “{m}” and submit it.",
                "Type “{m}” into the field and press Enter.")
FILL_IN = ("On {screen}, fill in {fields} and tap “{button}”.",
           "Fill in {fields}, then press “{button}”.", "Enter {fields} and tap “{button}”.")
UNNAMED_LIST = "the list"
"""How a list with no name of its own is called (`synthesize._collection`)."""
ADD_TYPED_BY = ("Use “{button}” to add “{m}”.", "Tap “{button}” and add “{m}”.",
                "Add “{m}” with “{button}”.")
"""The same where the list it goes to has no name of its own ("the list" would be
ambiguous, or wrong where the button names what it adds: onelist's "Add List")."""
ENTER_BY = ("Tap “{button}”, enter “{m}” and confirm.",
            "Press “{button}”, type “{m}” and confirm it.",
            "Tap “{button}”, type “{m}” and confirm.")
"""The same where the button does not say it adds (ajsha's “SAVE” saves a file under the
name typed: "Add “Hello World” with “SAVE”" is not what a person asks): the steps."""
FILL_IN_ON = ("On {screen}, fill in {fields} and tap “{button}”.",
              "On {screen}, enter {fields} and tap “{button}”.",
              "On {screen}, type {fields} and press “{button}”.")
"""A form's one unnamed field: the form's name says where it is typed."""
FILL_IN_VIA = ("Tap “{screen}”, fill in {fields} and tap “{button}”.",
               "Press “{screen}”, enter {fields} and tap “{button}”.",
               "Tap “{screen}”, type {fields} and press “{button}”.")
"""The same where the form is named by the button that opens it (onelist's "Add List")."""
ADD_TYPED = ("Add “{m}” to {where}.", "Create “{m}” in {where}.",
             "Type “{m}” and add it to {where}.")
ADD_TYPED_IN = ("Add “{m}” with the “{field}” box.", "Type “{m}” in the “{field}” box and add it.",
                "Enter “{m}” in “{field}” to add it.")
"""The same where the list has no name of its own but the field says what it does
(onelist's “Add” box over the list of items): not "Add “…” to the list"."""
SUBMIT = ("Go through {form} and tap “{button}”.", "Press “{button}” on the {form} screen.",
          "Get to {form} and press “{button}”.")
BOTH = ("{a}, then {b}.", "First {a}; after that, {b}.", "{A} and {b}.",
        "Please {a}, and then {b}.")
ACROSS = ("Check in {app_a}: {qa} Then switch to {app_b} and {b}. Reply with what you "
          "found in {app_a}.",
          "Open {app_a} and find this out: {qa} After that, in {app_b}, {b}. Finally, tell "
          "me the answer.",
          "In {app_b}, {b}. Before that, look this up in {app_a}: {qa} Answer at the end.")
PASS_ON = ("Check in {app_a}: {qa} Then open {app_b} and send what you found to {n}.",
           "Find this out in {app_a}: {qa} Text the answer to {n} in {app_b}.",
           "Look up the answer in {app_a} ({qa}) and message it to {n} using {app_b}.")
IN_APP = ("In {app}, {t}", "Open {app} and {t}", "Using {app}: {T}")
IN_APP_ASK = ("In {app}, {t}", "Using {app}: {T}", "{T} (Look in {app}.)")
