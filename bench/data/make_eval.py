"""Generate graphmem's recall evaluation set: synthetic long-term conversations + questions.

Why synthetic: public conversational benchmarks are large, licensed per dataset and do not
tag *which* relationship a question leans on. This generator writes a small, seeded,
fully known world per user (people, relationships, facts that change over time, dated
events) and the questions whose evidence turns are known exactly, so any extractor or
retriever can be scored by turn: a recall hit counts when a card's source
``(session_id, turn)`` is one of the question's expected turns.

Run ``python bench/data/make_eval.py`` to rewrite the committed set in ``bench/data/eval``
and ``python bench/data/make_eval.py --users 200 --out DIR`` for a larger benchmark set.
Output depends only on ``--seed`` and ``--users``; user ``i`` is the same in every size,
so the committed users are the first users of every scale variant.

Stdlib only, deterministic: one ``random.Random`` per user, seeded from a string.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
DEFAULT_USERS = 16
DEFAULT_SEED = 7
DEFAULT_OUT = Path(__file__).resolve().parent / "eval"
CATEGORIES = ("single-hop", "relationship", "multi-hop", "temporal", "updated")
#: Questions per user and category: 30/25/15/15/15 %.
QUOTA = {"single-hop": 6, "relationship": 5, "multi-hop": 3, "temporal": 3, "updated": 3}
MAX_TURNS = 30
MIN_TURNS = 10
_MAX_BEAT_LINES = 17  # user turns with content per session: keeps sessions <= 30 turns

# --------------------------------------------------------------------------- pools

FEMALE = (
    "Alice",
    "Priya",
    "Maria",
    "Sofia",
    "Aisha",
    "Mei",
    "Yuki",
    "Fatima",
    "Olga",
    "Ingrid",
    "Chloe",
    "Emma",
    "Grace",
    "Hannah",
    "Zara",
    "Leila",
    "Ana",
    "Lucia",
    "Amara",
    "Chiamaka",
    "Ngozi",
    "Keiko",
    "Ji-woo",
    "Sakura",
    "Anjali",
    "Deepa",
    "Meera",
    "Noor",
    "Yasmin",
    "Elif",
    "Zeynep",
    "Marta",
    "Katarzyna",
    "Svetlana",
    "Freya",
    "Astrid",
    "Siobhan",
    "Niamh",
    "Aoife",
    "Isabela",
    "Camila",
    "Valentina",
    "Ximena",
    "Thandiwe",
    "Ama",
    "Adaeze",
    "Linh",
    "Thao",
    "Hana",
    "Rosa",
    "Claire",
    "Beth",
    "Jess",
    "Rachel",
    "Naomi",
    "Esther",
    "Tamar",
    "Kavya",
    "Ines",
    "Margaux",
    "Léa",
    "Greta",
    "Paula",
    "Bianca",
    "Jing",
    "Mariam",
    "Salma",
    "Zoë",
)
MALE = (
    "Tom",
    "Bob",
    "Raj",
    "Arjun",
    "Wei",
    "Hiroshi",
    "Kenji",
    "Omar",
    "Ahmed",
    "Mohammed",
    "Carlos",
    "Diego",
    "Mateo",
    "Luis",
    "Pedro",
    "João",
    "Kwame",
    "Chidi",
    "Emeka",
    "Tunde",
    "Kofi",
    "Sipho",
    "Lars",
    "Erik",
    "Sven",
    "Mikhail",
    "Dmitri",
    "Pavel",
    "Jakub",
    "Tomasz",
    "Liam",
    "Noah",
    "Oliver",
    "Jack",
    "Harry",
    "Ben",
    "Dan",
    "Mike",
    "Chris",
    "Josh",
    "Ravi",
    "Vikram",
    "Sanjay",
    "Amit",
    "Hamza",
    "Yusuf",
    "Karim",
    "Mehmet",
    "Emre",
    "Min-jun",
    "Jae",
    "Takeshi",
    "Hao",
    "Jun",
    "Minh",
    "Tuan",
    "Andrés",
    "Rafael",
    "Marco",
    "Luca",
    "Giovanni",
    "Pierre",
    "Felix",
    "Jonas",
    "Malik",
    "Darnell",
    "Marcus",
    "Isaac",
    "David",
    "Eli",
    "Finn",
    "Cian",
    "Rhys",
)
#: Every user knows two of these, with other relationships and facts: tests tenant isolation.
SHARED_NAMES = (
    ("Alice", "f"),
    ("Tom", "m"),
    ("Priya", "f"),
    ("Bob", "m"),
    ("Maria", "f"),
    ("Omar", "m"),
    ("Mei", "f"),
    ("Jack", "m"),
)

# (US label, UK label, gender or "", social class); one label per group and user.
REL_GROUPS: tuple[tuple[tuple[str, str, str, str], ...], ...] = (
    (
        ("wife", "wife", "f", "family"),
        ("husband", "husband", "m", "family"),
        ("partner", "partner", "", "family"),
        ("girlfriend", "girlfriend", "f", "family"),
        ("boyfriend", "boyfriend", "m", "family"),
    ),
    (("sister", "sister", "f", "family"),),
    (("brother", "brother", "m", "family"),),
    (("mom", "mum", "f", "family"), ("stepmom", "stepmum", "f", "family")),
    (("dad", "dad", "m", "family"), ("stepdad", "stepdad", "m", "family")),
    (("grandma", "gran", "f", "family"), ("grandpa", "grandad", "m", "family")),
    (("aunt", "aunt", "f", "family"), ("uncle", "uncle", "m", "family")),
    (("cousin", "cousin", "", "family"),),
    (("niece", "niece", "f", "family"), ("nephew", "nephew", "m", "family")),
    (
        ("sister-in-law", "sister-in-law", "f", "family"),
        ("brother-in-law", "brother-in-law", "m", "family"),
        ("mother-in-law", "mother-in-law", "f", "family"),
    ),
    (
        ("manager", "manager", "", "work"),
        ("boss", "boss", "", "work"),
        ("team lead", "team lead", "", "work"),
    ),
    (("coworker", "colleague", "", "work"), ("work friend", "work mate", "", "work")),
    (("mentor", "mentor", "", "work"),),
    (("client", "client", "", "work"),),
    (
        ("friend", "friend", "", "social"),
        ("best friend", "best friend", "", "social"),
        ("college friend", "uni friend", "", "social"),
        ("old school friend", "old school friend", "", "social"),
    ),
    (("neighbor", "neighbour", "", "social"),),
    (("roommate", "flatmate", "", "social"),),
    (("landlord", "landlord", "m", "social"), ("landlady", "landlady", "f", "social")),
    (("gym buddy", "gym buddy", "", "social"), ("running buddy", "running buddy", "", "social")),
)

CITIES = (
    "Lisbon",
    "Berlin",
    "Toronto",
    "Melbourne",
    "Austin",
    "Denver",
    "Leeds",
    "Manchester",
    "Bristol",
    "Glasgow",
    "Dublin",
    "Seattle",
    "Portland",
    "Chicago",
    "Boston",
    "Nairobi",
    "Lagos",
    "Accra",
    "Mumbai",
    "Bangalore",
    "Singapore",
    "Tokyo",
    "Osaka",
    "Seoul",
    "Mexico City",
    "Bogotá",
    "Buenos Aires",
    "São Paulo",
    "Madrid",
    "Barcelona",
    "Valencia",
    "Lyon",
    "Marseille",
    "Amsterdam",
    "Rotterdam",
    "Copenhagen",
    "Stockholm",
    "Oslo",
    "Helsinki",
    "Warsaw",
    "Kraków",
    "Prague",
    "Vienna",
    "Zurich",
    "Edinburgh",
    "Cardiff",
    "Vancouver",
    "Montreal",
    "Auckland",
    "Cape Town",
    "Istanbul",
    "Athens",
    "Hanoi",
    "Taipei",
    "Brighton",
    "Sheffield",
    "Nottingham",
    "Atlanta",
    "Minneapolis",
    "Pittsburgh",
    "San Diego",
)
COMPANIES = (
    "Acme",
    "Globex",
    "Initech",
    "Northwind Traders",
    "Brightline Health",
    "Contoso",
    "Umbra Labs",
    "Fernhill Logistics",
    "Bluepeak Software",
    "Harbor Bank",
    "Meridian Insurance",
    "Copperleaf Studios",
    "Tidewater Energy",
    "Oakridge Consulting",
    "Lumen Analytics",
    "Riverbend Foods",
    "Silverline Media",
    "Kestrel Robotics",
    "Pinecone Publishing",
    "Vantage Retail",
    "Nimbus Cloud",
    "Greenway Transit",
    "Atlas Architects",
    "Solstice Pharma",
    "Redwood Games",
    "Orbital Freight",
)
USER_ROLES = (
    "data analyst",
    "product manager",
    "UX designer",
    "backend developer",
    "nurse",
    "maths teacher",
    "accountant",
    "marketing manager",
    "civil engineer",
    "paralegal",
    "HR advisor",
    "sales lead",
    "research scientist",
    "project coordinator",
    "copywriter",
)
JOBS = (
    "nurse",
    "architect",
    "electrician",
    "vet",
    "paramedic",
    "pharmacist",
    "pilot",
    "journalist",
    "physiotherapist",
    "dentist",
    "librarian",
    "chef",
    "high school teacher",
    "firefighter",
    "plumber",
    "accountant",
    "software engineer",
    "graphic designer",
    "lawyer",
    "social worker",
    "translator",
    "police officer",
    "midwife",
    "barber",
    "sommelier",
    "tattoo artist",
    "zookeeper",
    "bus driver",
    "florist",
    "estate agent",
    "air traffic controller",
)
ALLERGENS = (
    "peanuts",
    "shellfish",
    "cats",
    "penicillin",
    "gluten",
    "bee stings",
    "dairy",
    "sesame",
    "pollen",
    "eggs",
    "kiwi fruit",
    "latex",
    "dust mites",
    "tree nuts",
    "strawberries",
    "mustard",
)
#: The word before "allergy": "a peanut allergy", not "a peanuts allergy".
ALLERGY_NOUN = {
    "peanuts": "peanut",
    "cats": "cat",
    "bee stings": "bee sting",
    "eggs": "egg",
    "kiwi fruit": "kiwi",
    "dust mites": "dust mite",
    "tree nuts": "tree nut",
    "strawberries": "strawberry",
}
HOBBIES = (
    "rock climbing",
    "pottery",
    "chess",
    "salsa dancing",
    "birdwatching",
    "sourdough baking",
    "trail running",
    "knitting",
    "woodworking",
    "the cello",
    "surfing",
    "film photography",
    "gardening",
    "board games",
    "kayaking",
    "beekeeping",
    "watercolour painting",
    "fencing",
    "Warhammer",
    "open-water swimming",
    "stand-up comedy",
    "crossword puzzles",
)
KID_HOBBIES = (
    "swimming",
    "ballet",
    "football",
    "chess",
    "Lego robotics",
    "gymnastics",
    "drawing comics",
    "piano lessons",
    "karate",
    "dinosaurs",
    "coding club",
    "horse riding",
)
FOODS = (
    "sushi",
    "Thai green curry",
    "tacos al pastor",
    "dim sum",
    "lasagne",
    "pho",
    "jollof rice",
    "paella",
    "tonkotsu ramen",
    "falafel wraps",
    "chicken biryani",
    "pierogi",
    "injera",
    "mac and cheese",
    "shakshuka",
    "bibimbap",
    "fish and chips",
    "pad see ew",
    "butter chicken",
    "arepas",
    "katsu curry",
    "spanakopita",
)
BREEDS = (
    ("beagle", "dog"),
    ("tabby", "cat"),
    ("border collie", "dog"),
    ("Maine Coon", "cat"),
    ("cockapoo", "dog"),
    ("lop-eared rabbit", "rabbit"),
    ("Siamese", "cat"),
    ("greyhound", "dog"),
    ("dachshund", "dog"),
    ("ragdoll", "cat"),
    ("labrador", "dog"),
    ("Staffy", "dog"),
    ("corgi", "dog"),
    ("black cat", "cat"),
)
PET_NAMES = (
    "Biscuit",
    "Pepper",
    "Luna",
    "Milo",
    "Nala",
    "Ziggy",
    "Mochi",
    "Bruno",
    "Olive",
    "Pickle",
    "Toffee",
    "Rocco",
    "Daisy",
    "Maple",
    "Noodle",
    "Waffles",
    "Juno",
    "Pretzel",
    "Tango",
    "Bean",
    "Clementine",
    "Ozzy",
    "Pumpkin",
    "Socks",
    "Gizmo",
    "Fudge",
)
PET_CONDITIONS = (
    ("has a dodgy hip and might need surgery", "a bad hip"),
    ("was diagnosed with diabetes and needs insulin twice a day", "diabetes"),
    ("has a nasty ear infection again", "an ear infection"),
    ("has arthritis in the front paws", "arthritis"),
    ("has a heart murmur, the vet is keeping an eye on it", "a heart murmur"),
    ("keeps getting skin allergies from the grass", "skin allergies"),
    ("has to go on a special kidney diet", "kidney problems"),
    ("lost a tooth and can only eat soft food now", "a missing tooth"),
)
SCHOOLS = (
    "Maplewood Primary",
    "St. Anne's Primary",
    "Riverside Elementary",
    "Hillcrest Academy",
    "Oakfield Junior School",
    "Lincoln Elementary",
    "Westbrook High",
    "Greenfield Montessori",
    "Bayview Middle School",
    "Kingsley Grammar",
    "Cedar Park Elementary",
    "Northgate Academy",
    "Willow Lane Primary",
    "Summit Middle School",
    "Highbury Fields School",
)
TEAMS = (
    "Arsenal",
    "Liverpool",
    "the Chicago Cubs",
    "the Boston Celtics",
    "Boca Juniors",
    "Celtic",
    "the Green Bay Packers",
    "Barcelona",
    "Bayern Munich",
    "the Lakers",
    "Manchester United",
    "the Toronto Raptors",
    "Ajax",
    "Real Madrid",
    "the Yankees",
    "the Seattle Seahawks",
)
SHOWS = (
    "Succession",
    "Severance",
    "The Bear",
    "Ted Lasso",
    "Slow Horses",
    "Fleabag",
    "Only Murders in the Building",
    "The Last of Us",
    "Shōgun",
    "Abbott Elementary",
    "Derry Girls",
    "Schitt's Creek",
    "Dark",
    "Andor",
    "Mad Men",
    "Squid Game",
)
BOOKS = (
    "Project Hail Mary",
    "Klara and the Sun",
    "Piranesi",
    "The Overstory",
    "Normal People",
    "Circe",
    "Lessons in Chemistry",
    "Pachinko",
    "Demon Copperhead",
    "The Midnight Library",
    "Station Eleven",
    "Educated",
    "Tomorrow, and Tomorrow, and Tomorrow",
    "A Little Life",
)
BANDS = (
    "Radiohead",
    "Fleetwood Mac",
    "Arctic Monkeys",
    "Beyoncé",
    "Taylor Swift",
    "Fontaines D.C.",
    "Khruangbin",
    "Bon Iver",
    "Burna Boy",
    "Rosalía",
    "Phoebe Bridgers",
    "Tame Impala",
    "Little Simz",
    "The National",
    "Vampire Weekend",
    "Kendrick Lamar",
    "Haim",
    "Björk",
    "Bad Bunny",
    "Wet Leg",
)
CARS = (
    "Honda Civic",
    "Toyota Prius",
    "VW Golf",
    "Tesla Model 3",
    "Ford Fiesta",
    "Kia Niro",
    "Mazda MX-5",
    "Subaru Outback",
    "Nissan Leaf",
    "Volvo XC40",
    "Mini Cooper",
    "Skoda Octavia",
    "Hyundai Ioniq 5",
    "Fiat 500",
)
DIETS = (
    "vegetarian",
    "vegan",
    "pescatarian",
    "keto",
    "intermittent fasting",
    "low-FODMAP",
    "Mediterranean diet",
    "high-protein",
)
LANGUAGES = (
    "Spanish",
    "Japanese",
    "Portuguese",
    "Korean",
    "Italian",
    "German",
    "Mandarin",
    "Arabic",
    "Swahili",
    "French",
    "Greek",
    "Dutch",
    "Polish",
    "Turkish",
    "Hindi",
)
INSTRUMENTS = (
    "piano",
    "guitar",
    "violin",
    "ukulele",
    "drums",
    "saxophone",
    "trumpet",
    "bass guitar",
    "harp",
    "banjo",
    "clarinet",
)
PLACES = (
    "Iceland",
    "Kyoto",
    "the Amalfi Coast",
    "Patagonia",
    "Bali",
    "Morocco",
    "Croatia",
    "the Scottish Highlands",
    "Vietnam",
    "Peru",
    "the Norwegian fjords",
    "Sicily",
    "New Zealand",
    "Costa Rica",
    "Sri Lanka",
    "Crete",
    "Yosemite",
    "the Lake District",
    "Tanzania",
    "Quebec",
)
COFFEES = (
    "an oat flat white",
    "a double espresso",
    "a large iced americano",
    "black filter coffee, no sugar",
    "a chai latte with oat milk",
    "a cortado",
    "a decaf cappuccino",
    "a mocha with an extra shot",
)
CUISINES = (
    "Ethiopian",
    "Korean",
    "Lebanese",
    "Peruvian",
    "Vietnamese",
    "Georgian",
    "Sichuan",
    "Mexican",
    "Greek",
    "Nigerian",
    "Turkish",
    "Sri Lankan",
)
MUSEUMS = (
    "the Tate Modern",
    "the Natural History Museum",
    "the Science Museum",
    "the aquarium",
    "the botanical gardens",
    "the planetarium",
    "the modern art museum",
    "the railway museum",
)
PARKS = (
    "Snowdon",
    "the Peak District",
    "Lake Tahoe",
    "the Catskills",
    "Loch Lomond",
    "Joshua Tree",
    "the Dolomites",
    "Big Sur",
    "the Brecon Beacons",
    "Algonquin Park",
)
ACTIVITIES = (
    ("went bowling", "go bowling", "bowling"),
    ("went bouldering", "go climbing", "bouldering"),
    ("went to a comedy show", "see stand-up", "a comedy show"),
    ("went kayaking on the river", "go out on the water", "kayaking"),
    ("went to a pub quiz", "do trivia night", "a pub quiz"),
    ("went to an art gallery opening", "go to that exhibition", "a gallery opening"),
    ("went for a long bike ride", "go cycling", "a bike ride"),
    ("went to the zoo", "visit the zoo", "the zoo"),
    ("went to see a play", "go to the theatre", "a play"),
    ("went ice skating", "go skating", "ice skating"),
)
HEALTH = (
    (
        {
            "say": (
                "I'm lactose intolerant, so no cheese boards for me sadly.",
                "Dairy and I do not get along, lactose intolerant since forever.",
                "Had to skip the ice cream, my lactose intolerance would kill me.",
            ),
            "ask": (
                "Do I have any food intolerances?",
                "Is there a food my stomach can't handle?",
                "What should I avoid eating because of my digestion?",
            ),
            "answer": "lactose (lactose intolerant)",
        }
    ),
    (
        {
            "say": (
                "My knee is still wrecked, the physio says absolutely no running for now.",
                "Physio told me to stop running until my knee heals.",
                "No running for me for a while, doctor's orders because of the knee.",
            ),
            "ask": (
                "Which exercise am I supposed to avoid at the moment?",
                "Is there any sport I've been told not to do?",
            ),
            "answer": "running (bad knee)",
        }
    ),
    (
        {
            "say": (
                "Doctor told me I have to cut way back on salt because of my blood pressure.",
                "Blood pressure was high again, so salt is basically banned now.",
                "Trying to keep sodium really low, my GP is worried about my blood pressure.",
            ),
            "ask": (
                "What did my doctor tell me to cut down on?",
                "Is there an ingredient I'm supposed to limit for health reasons?",
            ),
            "answer": "salt",
        }
    ),
    (
        {
            "say": (
                "Red wine gives me a migraine every single time, I've given up on it.",
                "One glass of red wine and I get a migraine, so I avoid it.",
                "Learned my lesson: red wine equals migraine for me.",
            ),
            "ask": ("Which drink triggers my headaches?", "What sets off my migraines?"),
            "answer": "red wine",
        }
    ),
    (
        {
            "say": (
                "I'm coeliac, so anything with gluten is off the menu.",
                "Got the coeliac diagnosis confirmed, so it's strictly gluten-free for me.",
                "Being coeliac means I have to check every label for gluten.",
            ),
            "ask": (
                "What can't I eat because of my condition?",
                "Which ingredient do I have to avoid completely?",
            ),
            "answer": "gluten (coeliac)",
        }
    ),
    (
        {
            "say": (
                "I'm allergic to penicillin, found out as a kid the hard way.",
                "Reminder for future me: penicillin allergy, always tell the doctor.",
                "Told the new GP about my penicillin allergy.",
            ),
            "ask": ("Which medicine am I allergic to?", "What drug should doctors never give me?"),
            "answer": "penicillin",
        }
    ),
)

# --------------------------------------------------------------------------- templates

# Person facts. Fields: {Subj}/{subj} name or pronoun, {Subjs}/{subjs} possessive,
# {he}/{his}/{him} pronouns, plus the value fields of the kind.
PERSON_SAY: dict[str, tuple[str, ...]] = {
    "allergy": (
        "{Subj} is allergic to {v}.",
        "{Subj} has a really bad {va} allergy, so I have to be careful when {he} visits.",
        "Found out the hard way that {subj} can't handle {v}, {he} came out in hives.",
        "Note to self: no {v} anywhere near {subjo}.",
        "{Subj} reacts really badly to {v}, like carry-an-EpiPen badly.",
        "Apparently {subj} has been allergic to {v} since {he} was little.",
        "{Subj} had to leave the party early because of {v}, {his} allergy flared up again.",
    ),
    "job": (
        "{Subj} works as {a_v}.",
        "{Subj} has been {a_v} for almost ten years now.",
        "{Subj} just finished a double shift, being {a_v} sounds exhausting.",
        "{Subj} is {a_v}, which is why {he} always has the best stories.",
        "{Subjs} job as {a_v} keeps {him} crazy busy.",
        "{Subj} trained as {a_v} and honestly loves it.",
        "{Subj} said work is mad at the moment, apparently every {v} in town is short-staffed.",
    ),
    "hobby": (
        "{Subj} is really into {v} these days.",
        "{Subj} spends basically every weekend on {v}.",
        "{Subjs} big passion is {v}.",
        "{Subj} has been obsessed with {v} since last summer.",
        "{Subj} keeps trying to get me into {v}, not happening lol",
        "{Subj} showed me a million photos from {his} {v} group, {he} is so into it.",
    ),
    "pet": (
        "{Subj} has a {breed} called {pet}.",
        "{Subjs} {breed}, {pet}, chewed through another pair of shoes.",
        "{Subj} adopted a {breed} named {pet} from the shelter.",
        "{pet}, {subjs} {breed}, is the cutest thing I have ever seen.",
        "{Subj} can't stop posting pictures of {his} {breed} {pet}.",
    ),
    "birthday": (
        "{Subjs} birthday is on {bday}.",
        "{Subj} turns {age} on {bday}, I need to plan something.",
        "Must not forget {subjs} birthday again this year, it's {bday}.",
        "Already bought a present for {subjo}, {his} birthday is {bday}.",
        "{Subj} was born on {bday}, so we always celebrate around then.",
    ),
    "lives": (
        "{Subj} lives in {v}.",
        "{Subj} is based in {v} these days.",
        "{Subjs} flat in {v} is tiny but gorgeous.",
        "{Subj} has been living in {v} for a few years.",
        "I really need to visit {subjo} in {v} at some point.",
        "{Subj} says the weather in {v} has been miserable all month.",
    ),
    "food": (
        "{Subj} loves {v}.",
        "{Subj} would eat {v} every day if {he} could.",
        "{Subjs} absolute favourite food is {v}.",
        "Whenever we go out, {subj} insists on {v}.",
        "{Subj} is a total {v} fiend.",
        "Made {v} for {subjo} and {he} went back for thirds.",
    ),
    "school": (
        "{Subj} goes to {v}.",
        "{Subj} just started at {v} and seems to like it.",
        "{Subjs} teacher at {v} says {he} is doing great.",
        "{Subj} has a school play at {v} coming up.",
    ),
    "team": (
        "{Subj} supports {v}, it's a whole personality.",
        "{Subj} is a massive {tv} fan.",
        "{Subj} was in a foul mood because {v} lost again.",
        "{Subj} has had a season ticket for {v} for years.",
    ),
}
PERSON_ASK: dict[str, tuple[str, ...]] = {
    "allergy": (
        "What is {who} allergic to?",
        "Does {who} have any allergies I should know about?",
        "What should I keep away from {who}?",
        "Is there anything {who} reacts badly to?",
        "what's {whos} allergy again?",
    ),
    "job": (
        "What does {who} do for a living?",
        "What's {whos} job?",
        "What line of work is {who} in?",
        "Remind me what {who} does for work?",
        "what is {whos} profession?",
    ),
    "hobby": (
        "What's {who} into?",
        "What does {who} do in {their} free time?",
        "What hobby is {who} obsessed with?",
        "How does {who} like to spend weekends?",
    ),
    "pet": (
        "What kind of pet does {who} have?",
        "What's the name of {whos} pet?",
        "Does {who} have an animal at home? Which one?",
    ),
    "birthday": (
        "When is {whos} birthday?",
        "What date should I remember for {whos} birthday?",
        "When do we celebrate {whos} birthday?",
    ),
    "lives": (
        "Where does {who} live?",
        "Which city is {who} based in?",
        "What city would I travel to if I wanted to visit {who}?",
    ),
    "food": (
        "What food does {who} like?",
        "What should I cook if {who} comes for dinner?",
        "What's {whos} favourite dish?",
        "what does {who} love to eat?",
    ),
    "school": (
        "Where does {who} go to school?",
        "Which school is {who} at?",
        "What's the name of {whos} school?",
    ),
    "team": (
        "Which team does {who} support?",
        "Who does {who} cheer for?",
        "What team is {who} a fan of?",
    ),
}
ADULT_KINDS = ("allergy", "job", "hobby", "pet", "birthday", "lives", "food", "team")
CHILD_KINDS = ("allergy", "hobby", "birthday", "food", "school")
PARTNER_KINDS = ("allergy", "job", "hobby", "food", "birthday", "team")

INTRO: dict[str, tuple[str, ...]] = {
    "family": (
        "My {rel} {name} is coming to stay with us next week.",
        "{name}, my {rel}, called this morning and we ended up talking for an hour.",
        "Going over to my {rel} {name}'s place for dinner on Sunday.",
        "I was texting my {rel} {name} about plans for the holidays.",
        "Had a bit of a falling out with my {rel} {name}, we're fine now though.",
        "My {rel} {name} sent me the funniest video today.",
        "Just so you know, {name} is my {rel}.",
        "{name} (my {rel}) wants to organise a family lunch next month.",
    ),
    "work": (
        "{name}, my {rel}, wants the quarterly report by Thursday.",
        "Had my one-on-one with {name}, my {rel}, today. Went fine.",
        "My {rel} {name} suggested I take the lead on the new project.",
        "Grabbed lunch with my {rel} {name}, we mostly complained about the printer.",
        "For context, {name} is my {rel}.",
        "Long meeting with my {rel} {name} this afternoon, my brain is fried.",
    ),
    "social": (
        "My {rel} {name} and I finally caught up over coffee.",
        "Ran into my {rel} {name} at the supermarket.",
        "{name}, my {rel}, is throwing a housewarming on Saturday.",
        "Going to the cinema with my {rel} {name} later.",
        "My {rel} {name} lent me a ladder, which was very kind.",
        "FYI {name} is my {rel}, I'll probably mention {him} a lot.",
    ),
}
#: Relationships whose own partner/child/pet would read oddly (a grandad's little daughter).
NO_HUB = frozenset(
    {
        "wife",
        "husband",
        "partner",
        "girlfriend",
        "boyfriend",
        "mom",
        "mum",
        "stepmom",
        "stepmum",
        "dad",
        "stepdad",
        "grandma",
        "gran",
        "grandpa",
        "grandad",
        "aunt",
        "uncle",
        "niece",
        "nephew",
        "mother-in-law",
    }
)
#: People the user lives with: no "lives in <city>" facts about them.
COHABITING = frozenset(
    {"wife", "husband", "partner", "girlfriend", "boyfriend", "roommate", "flatmate"}
)
OUR_RELS = ("neighbor", "neighbour", "landlord", "landlady")

LINK_SAY: dict[str, tuple[str, ...]] = {
    "child": (
        "{H}'s {drel} {Y} is {age} now, can you believe it.",
        "{H} brought {hpos} {drel} {Y} along to the barbecue.",
        "{H} was telling me about {hpos} {drel} {Y} all through lunch.",
        "Saw {H} and {hpos} little {drel} {Y} at the park.",
        "{H} says {hpos} {drel} {Y} has started reading everything in sight.",
    ),
    "partner": (
        "{H}'s {drel} {Y} is really nice, we chatted for ages.",
        "{H} and {hpos} {drel} {Y} are coming to the barbecue.",
        "Met {H}'s {drel} {Y} for the first time, lovely person.",
        "{H} is away this week, so {hpos} {drel} {Y} is looking after the house.",
    ),
}
PET_SAY = (
    "{pet} {v}, poor thing.",
    "Vet says {pet} {v}.",
    "Bad news: {pet} {v}.",
    "Poor {pet} {v}.",
)
PET_ASK = (
    "What health problem does {whos} {species} have?",
    "What did the vet say is wrong with {whos} {species}?",
    "Is {whos} {species} okay? What's the issue?",
)
MENTION = (
    "Talked to {name} on the phone for like an hour.",
    "{name} came round for coffee this afternoon.",
    "Had a long catch-up with {name} earlier.",
    "Oh, I saw {name} at the farmers' market.",
    "{name} dropped by unexpectedly today.",
    "Finally got hold of {name}.",
)
MENTION_REPLY = (
    "Oh nice, how's {name} doing?",
    "How is {he} these days?",
    "Ah, what's new with {name}?",
    "How's {name} getting on?",
    "Lovely! Any news from {him}?",
)

# The user's own facts that never change.
USER_STATIC: dict[str, dict[str, tuple[str, ...]]] = {
    "coffee": {
        "say": (
            "My usual order is {v}.",
            "Can't start the day without {v}.",
            "The café already knows me, {v} every morning.",
            "Treated myself to {v} on the way in.",
        ),
        "ask": (
            "How do I take my coffee?",
            "What's my usual coffee order?",
            "If you were buying me a coffee, what should you get?",
        ),
    },
    "language": {
        "say": (
            "I started learning {v} on Duolingo, 40 day streak!",
            "My {v} lessons are going okay, the grammar is brutal.",
            "Practising {v} with a tutor twice a week now.",
        ),
        "ask": ("Which language am I learning?", "What language am I studying at the moment?"),
    },
    "instrument": {
        "say": (
            "I've been practising {v} every evening.",
            "Finally bought a {v}, lessons start soon.",
            "My {v} teacher says I'm improving, slowly.",
        ),
        "ask": ("What instrument am I learning?", "Which instrument have I been practising?"),
    },
    "own_pet": {
        "say": (
            "My {breed} {pet} has been so clingy this week.",
            "{pet}, my {breed}, stole a whole sandwich off the counter.",
            "Took {pet} to the groomer, my {breed} looks like a new animal.",
        ),
        "ask": ("What's my {species} called?", "What's the name of my pet?"),
    },
    "holiday": {
        "say": (
            "Planning a trip to {v} in {month}, so excited.",
            "Thinking {v} for the {month} holiday, I've been wanting to go forever.",
            "We've basically decided on {v} for {month}.",
        ),
        "ask": (
            "Where am I going on holiday in {month}?",
            "What's the destination for my {month} trip?",
        ),
    },
    "cuisine": {
        "say": (
            "{v} food is my absolute favourite.",
            "Nothing beats a good {v} meal honestly.",
            "If I could only eat one cuisine forever it'd be {v}.",
        ),
        "ask": ("What's my favourite type of cuisine?", "Which kind of food do I like best?"),
    },
    "team": {
        "say": (
            "I've supported {v} since I was a kid.",
            "Watching {v} tonight, fingers crossed.",
            "{v} lost again, I need a new hobby.",
        ),
        "ask": ("Which team do I support?", "Who do I cheer for?"),
    },
    "job": {
        "say": (
            "I'm {a_role} at {co}.",
            "Being {a_role} at {co} is never boring.",
            "Work at {co} was chaos today, as {a_role} I'm in meetings all day.",
        ),
        "ask": ("What do I do for work?", "Where do I work and what's my role?"),
    },
    "city": {
        "say": (
            "I've lived in {v} for about six years now.",
            "It's raining again here in {v}.",
            "Love {v} in the spring, best time of year here.",
        ),
        "ask": ("Which city do I live in?", "Where am I based?"),
    },
}
STATIC_KINDS = (
    "coffee",
    "language",
    "instrument",
    "own_pet",
    "holiday",
    "cuisine",
    "team",
    "health",
    "job",
    "city",
)

# Changing facts: the old statement, the new one, and the question about the current value.
UPDATE_SAY: dict[str, dict[str, tuple[str, ...]]] = {
    "city": {
        "old": (
            "I've lived in {old} for about six years now.",
            "It's raining again here in {old}.",
            "Rent in {old} is getting ridiculous.",
            "Love {old} in the spring.",
        ),
        "new": (
            "We finally moved to {new}! Boxes everywhere.",
            "First week living in {new} after the move, still finding my way around.",
            "Unpacking in the new flat in {new}, so glad to be out of {old}.",
            "The move to {new} is done, I'm officially a local now.",
        ),
        "ask": (
            "Where do I live now?",
            "Which city am I based in these days?",
            "What's my current city?",
            "where am I living at the moment?",
        ),
    },
    "job": {
        "old": (
            "I'm {a_role} at {old}.",
            "Work at {old} was chaos today.",
            "As {a_role} at {old} I spend half my life in meetings.",
        ),
        "new": (
            "Big news: I accepted an offer from {new}! Started {when}.",
            "{When} was my first day at {new}, everyone seems nice.",
            "Officially left {old}, I started at {new} {when}.",
            "Started the new job at {new} {when}, so much to learn.",
        ),
        "ask": (
            "Who do I work for now?",
            "Where am I working these days?",
            "What company am I at currently?",
        ),
    },
    "show": {
        "old": (
            "My favourite show is {old}, I've rewatched it three times.",
            "Nothing beats {old}, best thing on TV.",
            "Watching {old} again, still my favourite.",
        ),
        "new": (
            "{new} is my new favourite show, sorry {old}.",
            "Honestly {new} has overtaken {old} for me, I'm hooked.",
            "Binged all of {new} this week, it's the best thing I've watched.",
        ),
        "ask": (
            "What's my favourite TV show at the moment?",
            "Which series am I hooked on now?",
            "What should I say if someone asks my top show right now?",
        ),
    },
    "book": {
        "old": (
            "My favourite book is {old}, I push it on everyone.",
            "Rereading {old} for the third time, still the best book I know.",
        ),
        "new": (
            "Just finished {new} and it's my new all-time favourite.",
            "{new} might have replaced {old} as my favourite book.",
        ),
        "ask": ("What's my favourite book now?", "Which novel do I currently rate the highest?"),
    },
    "band": {
        "old": (
            "{old} is my favourite band, no contest.",
            "On a big {old} kick again, favourite ever.",
        ),
        "new": (
            "I've completely switched to {new}, they're my favourite now.",
            "Can't stop listening to {new}, sorry {old}, new number one.",
        ),
        "ask": ("Who's my favourite artist these days?", "What music am I most into right now?"),
    },
    "car": {
        "old": ("My {old} is making that rattling noise again.", "Drove the {old} to the coast."),
        "new": ("Sold the {old} and got a {new}!", "Picked up my {new} today, bye bye {old}."),
        "ask": ("What car do I drive now?", "What's my current car?"),
    },
    "diet": {
        "old": (
            "I've been {old} for about a year now.",
            "Sticking with the {old} thing, feeling good.",
        ),
        "new": (
            "Dropped {old} and I'm doing {new} now.",
            "Switched to {new}, {old} just wasn't working for me.",
        ),
        "ask": ("What diet am I following now?", "What's my current way of eating?"),
    },
    "person_job": {
        "old": (
            "{Subj} works as {a_old}.",
            "{Subj} has been {a_old} forever.",
            "{Subjs} job as {a_old} is so stressful.",
        ),
        "new": (
            "{Subj} just started a new job as {a_new}.",
            "{Subj} quit and is {a_new} now!",
            "{Subj} retrained and now works as {a_new}, good for {him}.",
        ),
        "ask": (
            "What does {who} do now?",
            "What's {whos} job these days?",
            "What is {who} working as at the moment?",
        ),
    },
    "person_city": {
        "old": (
            "{Subj} lives in {old}.",
            "{Subj} is based in {old}.",
            "{Subjs} flat in {old} is lovely.",
        ),
        "new": (
            "{Subj} finally moved to {new}.",
            "{Subj} packed up and relocated to {new}.",
            "{Subj} has a new place in {new} now, the move went well.",
        ),
        "ask": (
            "Where does {who} live now?",
            "Which city has {who} ended up in?",
            "Where is {who} living these days?",
        ),
    },
}
USER_UPDATE_KINDS = ("city", "job", "show", "book", "band", "car", "diet")
PERSON_UPDATE_KINDS = ("person_job", "person_city")

PAST_EVENTS = (
    {
        "say": "went to see {band} live",
        "what": "saw {band} live",
        "ask": ("When did I see {band} in concert?", "What date was the {band} gig I went to?"),
    },
    {
        "say": "finally passed my driving test",
        "what": "passed the driving test",
        "ask": ("When did I pass my driving test?", "What day did I get my licence?"),
    },
    {
        "say": "had my wisdom teeth out",
        "what": "had wisdom teeth removed",
        "mood": "bad",
        "ask": ("When did I have my wisdom teeth removed?", "When was my wisdom tooth surgery?"),
    },
    {
        "say": "got my flu jab",
        "what": "got a flu jab",
        "mood": "fact",
        "ask": ("When did I get the flu vaccine?", "When was I vaccinated against flu?"),
    },
    {
        "say": "went camping at {park}",
        "what": "went camping at {park}",
        "ask": (
            "When was my camping trip to {park}?",
            "What date did I sleep in a tent at {park}?",
        ),
    },
    {
        "say": "repainted the whole living room",
        "what": "repainted the living room",
        "ask": ("When did I paint the lounge?", "When did I redo the living room walls?"),
    },
    {
        "say": "gave my big presentation to the board",
        "what": "presented to the board",
        "ask": ("When did I present to the board?", "When was my board presentation?"),
    },
    {
        "say": "did an escape room with people from work",
        "what": "did an escape room",
        "ask": ("When did I do the escape room with my coworkers?",),
    },
    {
        "say": "went to {museum}",
        "what": "visited {museum}",
        "ask": ("When did I visit {museum}?", "What day was I at {museum}?"),
    },
    {
        "say": "had an MRI on my knee",
        "what": "had a knee MRI",
        "mood": "bad",
        "ask": ("When was my knee scan?", "When did I get my knee imaged?"),
    },
    {
        "say": "ran my first 10k",
        "what": "ran a first 10k",
        "ask": ("When did I run my first ten kilometre race?", "When did I do my first 10k?"),
    },
    {
        "say": "went to a {cuisine} cooking class",
        "what": "took a {cuisine} cooking class",
        "ask": ("When did I take the {cuisine} cooking class?",),
    },
    {
        "say": "sprained my ankle playing five-a-side",
        "what": "sprained an ankle",
        "mood": "bad",
        "ask": ("When did I hurt my ankle?", "What day did I injure my ankle at football?"),
    },
    {
        "say": "got a new tattoo",
        "what": "got a tattoo",
        "ask": ("When did I get inked?", "When did I get my latest tattoo?"),
    },
)
FUTURE_EVENTS = (
    {
        "say": "I'm flying to {place}",
        "ask": ("When am I flying to {place}?", "What date do I leave for {place}?"),
    },
    {
        "say": "I've got a dentist appointment",
        "ask": ("When is my next dentist appointment?", "What day am I seeing the dentist?"),
    },
    {
        "say": "I have my performance review",
        "ask": ("When is my performance review?", "What date is my annual review at work?"),
    },
    {
        "say": "the plumber is coming to fix the boiler",
        "ask": ("When is the plumber coming?", "What day is the boiler repair booked for?"),
    },
    {"say": "I'm getting the car serviced", "ask": ("When is my car going in for its service?",)},
    {"say": "I've got my eye test", "ask": ("When is my eye exam?", "When do I see the optician?")},
)
PERSON_EVENTS = (
    {
        "say": "{subj} got engaged",
        "ask": ("When did {who} get engaged?", "What day did {who} get engaged?"),
    },
    {
        "say": "{subj} had {his} knee surgery",
        "ask": ("When did {who} have the operation?", "When was {whos} surgery?"),
    },
    {"say": "{subj} ran {his} first marathon", "ask": ("When did {who} do the marathon?",)},
    {
        "say": "{subj} broke {his} wrist falling off a bike",
        "ask": ("When did {who} break {their} wrist?", "When was {whos} bike accident?"),
    },
    {
        "say": "{subj} got the keys to {his} first house",
        "ask": ("When did {who} buy a house?", "What day did {who} become a homeowner?"),
    },
)
PAST_FORMS = (
    "{When} I {say}.",
    "I {say} {when}.",
    "{When} I {say}, what a day.",
    "Forgot to tell you, I {say} {when}.",
    "So {when} I {say}. Long day.",
)
SHARED_FORMS = (
    "{When} {name} and I {say}.",
    "{name} and I {say} {when}, it was great.",
    "I {say} with {name} {when}.",
)
SHARED_ASK = ("When did I {ask} with {who}?", "What day did {who} and I {ask}?")
DATE_ASK = (
    "What did I do on {date}?",
    "What was I up to on {date}?",
    "Anything notable I did on {date}?",
)
ATTR_PHRASE = {
    "lives": ("the person I know in {v}", "the one who lives in {v}"),
    "allergy": ("the one who's allergic to {v}", "the person with the {va} allergy"),
    "pet": ("the one with the {breed}", "the person who has a {breed}"),
    "team": ("the {v} fan I know", "the person who supports {v}"),
}
MULTI_TARGETS = ("job", "food", "hobby")

# ---- filler: small talk, requests with their replies, distractor mentions
GREETINGS = (
    "hey",
    "Hi!",
    "Hey there!",
    "ok quick one",
    "hello again",
    "Hey, you there?",
    "hiya",
    "yo",
    "Hi, got a sec?",
)
OPENERS = (
    "Hi! How's your week been?",
    "Hey, good to see you again. What's new?",
    "Welcome back! What's on your mind?",
    "Hello! How are things?",
)
CLOSINGS = (
    "Thanks, that's all for now.",
    "ok gotta run",
    "Anyway, I'll let you go.",
    "Cheers!",
    "talk later",
    "Thanks, that helps.",
    "Right, bed time. Night!",
)
SMALL_TALK = (
    "The weather is finally turning.",
    "Just got back from the gym.",
    "Trying to drink more water this week.",
    "Made a huge pot of soup, that's lunch sorted.",
    "Thinking about rearranging the furniture again.",
    "Finally cleaned out the fridge.",
    "Watched a film that was way too long.",
    "Can't decide what to have for dinner.",
    "Been trying to read before bed instead of scrolling.",
    "Feeling pretty good today actually.",
    "Went for a walk at lunch, helped a lot.",
    "Spent the whole afternoon on admin.",
    "Found a great new coffee place near work.",
    "Cleared my whole to-do list for once.",
)
GRUMBLES = (
    "It's been a long week.",
    "Work has been absolutely nonstop.",
    "I slept terribly last night.",
    "My inbox is a disaster.",
    "Traffic was awful this morning.",
    "I think I'm coming down with a cold.",
    "I need a holiday, honestly.",
    "My phone screen cracked, great start to the day.",
    "Why is everything so expensive lately",
    "The heating is broken again.",
    "I have too many tabs open, in my browser and in my brain.",
    "Missed the bus by about four seconds.",
)
DISTRACT = (
    "Saw a documentary about {city}, looks beautiful.",
    "Tried making {food}, total disaster.",
    "Someone at work does {hobby}, it looks fun.",
    "Apparently {allergen} allergies are getting more common?",
    "The café put up a sign about {allergen} allergies.",
    "Someone on the train was wearing a {tteam} shirt.",
    "Read an article about how hard it is to become {a_job}.",
    "A {breed} at the park tried to steal my sandwich.",
    "Walked past a new {food} place, need to try it.",
    "My feed is full of {city} travel videos for some reason.",
)
NAME_DISTRACT = (
    "{name} sent me a meme that made me cry laughing.",
    "Need to call {name} back at some point.",
    "{name} says hi, by the way.",
    "I owe {name} a coffee.",
    "Bumped into {name} briefly, no time to chat.",
    "{name} recommended a podcast, haven't started it yet.",
)
TOPIC_DECOYS = {
    "allergy": (
        "Must double-check {subjs} allergies before the dinner party.",
        "{Subj} was asking which restaurants are good with allergies.",
        "I never remember what {subj} can and can't eat.",
    ),
    "job": (
        "{Subj} has been thinking about a career change, apparently.",
        "{Subj} and I talked about work for ages.",
        "{Subj} had a rough week at work.",
    ),
    "hobby": (
        "{Subj} wants me to join {his} weekend thing, not sure yet.",
        "Should find a hobby I can do with {subjo}.",
        "{Subj} needs a new hobby, {he} is bored stiff.",
    ),
    "pet": (
        "{Subj} is thinking about getting a pet.",
        "{Subj} sent me yet another animal video.",
        "{Subj} asked me to recommend a vet.",
    ),
    "birthday": (
        "Need to figure out what to get {subjo} this year.",
        "{Subj} hates making a fuss about birthdays.",
        "Is it weird that I never know how old {subj} is?",
    ),
    "lives": (
        "{Subj} keeps saying I should visit more often.",
        "{Subj} is sick of the commute.",
        "{Subj} is thinking about moving somewhere cheaper.",
    ),
    "food": (
        "{Subj} and I can never agree on where to eat.",
        "{Subj} is trying to cook more at home.",
        "Need to ask {subjo} what to make for the potluck.",
    ),
    "team": (
        "{Subj} was glued to the match all evening.",
        "{Subj} is still sulking about the weekend's game.",
        "{Subj} tried to explain the offside rule to me again.",
    ),
}
REL_DECOYS = (
    "My {rel} has been really stressed lately.",
    "I should call my {rel} more often.",
    "Thinking of getting my {rel} a small gift, just because.",
    "My {rel} gave me some surprisingly good advice today.",
    "Haven't heard from my {rel} in a while.",
)
PROBES = (
    "Does {name} have any allergies I should note?",
    "What does {name} do, by the way?",
    "Where does {name} live, remind me?",
    "When's {name}'s birthday? I can set a reminder.",
    "What kind of food does {name} like?",
    "Does {name} have any pets?",
    "What's {name} into these days?",
    "Which team does {name} follow?",
)
REQUESTS = (
    ("Can you remind me to call the bank tomorrow?", "Done, I'll remind you tomorrow morning."),
    (
        "What's a quick dinner I can make with chickpeas?",
        "A chickpea curry takes about 20 minutes: onion, garlic, tinned tomatoes, spices.",
    ),
    (
        "Any tips for falling asleep faster?",
        "Keep the same bedtime and put the phone away an hour before.",
    ),
    ("How many cups in a litre?", "About 4.2 US cups."),
    (
        "Help me word a polite no to a meeting invite?",
        "Sure: 'Thanks for the invite, I can't make it, but please send me the notes.'",
    ),
    ("What's the capital of Australia again?", "Canberra."),
    (
        "Can you suggest a podcast for my commute?",
        "Try a short daily news one, or a history series.",
    ),
    ("Remind me to buy milk", "Added milk to your shopping list."),
    ("How long should I boil an egg for a runny yolk?", "About six minutes from boiling."),
    ("Convert 180 C to Fahrenheit", "356°F."),
    ("Give me a word that rhymes with orange lol", "Not really. 'Door hinge' if you squint."),
    ("What's a good stretch for lower back pain?", "Try child's pose and knee-to-chest stretches."),
    (
        "Is it normal for a sourdough starter to smell like vinegar?",
        "Yes, that's usually just hungry starter. Feed it.",
    ),
    ("Can you set a timer for 25 minutes?", "Timer set for 25 minutes."),
    ("What should I name my new houseplant?", "How about Fernando?"),
    (
        "Write me a two-line birthday message for a coworker?",
        "'Happy birthday! Hope the year ahead is as great as you are at meetings.'",
    ),
)
REPLIES = {
    "fact": (
        "Got it.",
        "Good to know!",
        "Noted, I'll remember that.",
        "Makes sense.",
        "Thanks for telling me.",
        "Ah, interesting!",
        "Okay, noted.",
        "Oh, I didn't know that!",
        "Useful to know.",
        "I'll keep that in mind.",
    ),
    "news": (
        "Oh nice!",
        "That's a big change!",
        "Exciting!",
        "Love that.",
        "Well, that's news!",
        "Oh wow, good for them.",
    ),
    "good": (
        "That's wonderful!",
        "Sounds like a great time!",
        "Amazing, how was it?",
        "Ha, that sounds fun.",
        "Nice, how did it go?",
        "Love that.",
    ),
    "bad": (
        "Oh no, I'm sorry to hear that.",
        "That sounds rough.",
        "Ugh, that's frustrating.",
        "Hope things get better soon.",
        "That's a lot to deal with. How are you holding up?",
    ),
    "plan": (
        "Exciting! Want me to set a reminder?",
        "Nice, I'll remind you closer to the date.",
        "Sounds like a plan.",
        "Good luck with it!",
        "Let me know if you want help preparing.",
    ),
    "greet": (
        "Hey! What's up?",
        "Hi there, how's your day going?",
        "Hey! What can I do for you?",
        "Hello! Good to hear from you.",
    ),
    "close": ("Anytime! Talk soon.", "Take care!", "Have a good evening!", "Bye for now!"),
    "chat": (
        "Ha, I hear you.",
        "Fair enough!",
        "Mm, I see.",
        "Anything I can help with?",
        "Ha, relatable.",
        "Oh yeah?",
        "Nice.",
    ),
    "grumble": (
        "Oof.",
        "Sounds like a day.",
        "Hang in there.",
        "Ugh, sorry.",
        "That's annoying. Anything I can do?",
    ),
}
PREFIXES = (
    "Oh, ",
    "Btw ",
    "Anyway, ",
    "So ",
    "Random thing: ",
    "Also, ",
    "Quick update: ",
    "Oh and ",
    "Right, ",
    "Hmm, ",
)
_NO_PREFIX = (
    "Oh",
    "Btw",
    "Anyway",
    "So ",
    "Random",
    "Also",
    "Quick",
    "Right",
    "Hmm",
    "Big news",
    "Guess",
    "Heads up",
    "Just ",
    "FYI",
    "For context",
)
SUFFIXES = (" lol", " haha", " :)", "!!", " tbh")
BIRTHDAYS = tuple(f"{m}-{d}" for m in range(1, 13) for d in range(1, 29))
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


# --------------------------------------------------------------------------- helpers


def ordinal(n: int) -> str:
    """English ordinal for a day of the month.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def with_article(noun: str) -> str:
    """'a nurse', 'an architect'."""
    return ("an " if noun[0].lower() in "aeiou" else "a ") + noun


def say_date(day: date, rng: random.Random, *, year: bool = False) -> str:
    """A day of the year the way people write it, in one of several forms."""
    month = MONTHS[day.month - 1]
    forms = [
        f"{month} {day.day}",
        f"{month} {ordinal(day.day)}",
        f"{day.day} {month}",
        f"the {ordinal(day.day)} of {month}",
    ]
    text = rng.choice(forms)
    return f"{text} {day.year}" if year else text


def past_phrase(today: date, rng: random.Random) -> tuple[str, date]:
    """A relative or absolute mention of a recent past day, and the day it means.

    >>> tuesday = date(2024, 3, 12)
    >>> past_phrase(tuesday, random.Random(3)), past_phrase(tuesday, random.Random(5))
    (('yesterday', datetime.date(2024, 3, 11)), ('last Tuesday', datetime.date(2024, 3, 5)))
    """
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(("this morning", "earlier today")), today
    if roll < 0.40:
        return rng.choice(("yesterday", "yesterday evening")), today - timedelta(days=1)
    if roll < 0.50:
        return rng.choice(("two days ago", "the day before yesterday")), today - timedelta(days=2)
    if roll < 0.80:
        back = rng.randint(2, 7)
        day = today - timedelta(days=back)
        return f"last {WEEKDAYS[day.weekday()]}", day
    day = today - timedelta(days=rng.randint(3, 20))
    return "on " + say_date(day, rng), day


def future_phrase(today: date, rng: random.Random) -> tuple[str, date]:
    """A mention of a coming day ('tomorrow', 'this Thursday', 'on May 3rd') and that day.

    >>> tuesday = date(2024, 3, 12)
    >>> future_phrase(tuesday, random.Random(3))
    ('next Monday', datetime.date(2024, 3, 18))
    >>> future_phrase(tuesday, random.Random(7))
    ('this coming Friday', datetime.date(2024, 3, 15))
    """
    roll = rng.random()
    if roll < 0.2:
        return "tomorrow", today + timedelta(days=1)
    if roll < 0.55:
        day = today + timedelta(days=rng.randint(2, 6))
        later_this_week = day.weekday() > today.weekday()
        prefix = rng.choice(
            ("this ", "this coming ", "on ") if later_this_week else ("next ", "this coming ")
        )
        return prefix + WEEKDAYS[day.weekday()], day
    day = today + timedelta(days=rng.randint(8, 40))
    return "on " + say_date(day, rng), day


_TYPO_WORD = re.compile(r"(?<![{\w])[A-Za-z]{5,}(?![\w}])")


def add_typo(template: str, rng: random.Random) -> str:
    """Misspell one literal word of a template (never a placeholder or a value)."""
    parts = re.split(r"(\{[^}]*\})", template)
    spots = [
        (i, m)
        for i, part in enumerate(parts)
        if not part.startswith("{")
        for m in _TYPO_WORD.finditer(part)
    ]
    if not spots:
        return template
    i, match = rng.choice(spots)
    word = match.group()
    k = rng.randint(1, len(word) - 2)
    kind = rng.random()
    if kind < 0.5:
        typo = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
    elif kind < 0.8:
        typo = word[:k] + word[k + 1 :]
    else:
        typo = word[:k] + word[k] + word[k:]
    parts[i] = parts[i][: match.start()] + typo + parts[i][match.end() :]
    return "".join(parts)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------- world model


@dataclass
class Person:
    name: str
    gender: str
    rel: str | None = None  # relationship to the user
    cls: str = "social"
    hub: Person | None = None  # for second-degree people: whose drel they are
    drel: str | None = None  # relationship to the hub: daughter, husband ...
    intro: Line | None = None
    intro_session: int = 0
    facts: dict[str, Fact] = field(default_factory=dict)

    @property
    def he(self) -> str:
        return "she" if self.gender == "f" else "he"

    @property
    def his(self) -> str:
        return "her" if self.gender == "f" else "his"

    @property
    def him(self) -> str:
        return "her" if self.gender == "f" else "him"


@dataclass
class Line:
    """One user turn to place; ``pos`` is filled in when the session is assembled."""

    text: str
    mood: str = "fact"
    reply: str | None = None  # a reply that must follow (requests, pronoun set-ups)
    about: str | None = None  # the person named, for the assistant's follow-up questions
    pos: tuple[str, int] | None = None


@dataclass
class Beat:
    """User turns that stay together and in order (a mention + its pronoun follow-up)."""

    lines: list[Line]
    session: int
    key: float


@dataclass
class Fact:
    kind: str
    answer: str
    line: Line
    fields: dict[str, str]
    session: int
    used: bool = False


@dataclass
class Question:
    category: str
    question: str
    answer: str
    expected: list[Line]
    superseded: list[Line] = field(default_factory=list)


class UserWorld:
    """Everything one user says over all sessions, plus the questions about it."""

    def __init__(self, index: int, seed: int) -> None:
        self.rng = random.Random(f"graphmem-eval:{seed}:{index}")
        self.user_id = f"u{index + 1:03d}"
        self.locale = self.rng.choice(("US", "UK"))
        rng = self.rng
        self.n_sessions = rng.randint(4, 8)
        day = date(2023, 1, 2) + timedelta(days=rng.randint(0, 420))
        span = rng.randint(90, 320)  # sessions spread over three to ten months
        while True:
            offsets = [0, *sorted(rng.sample(range(1, span), self.n_sessions - 2)), span]
            if min(b - a for a, b in pairwise(offsets)) >= 5:
                break
        self.dates = [day + timedelta(days=o) for o in offsets]
        self.asked_at = self.dates[-1] + timedelta(days=rng.randint(1, 10))
        self.load = [0] * self.n_sessions
        self.beats: list[Beat] = []
        self.people: list[Person] = []
        self.questions: list[Question] = []
        self.used_values: dict[str, set[str]] = {}
        self.event_days: Counter[date] = Counter()
        self.proper: set[str] = set()
        self.used_names: set[str] = set()
        self.user_facts: set[str] = set()
        self.temporal_pool: list[Question] = []
        self.single_by_name = 0
        self.turns: list[dict[str, object]] = []

    # ---- placement

    def pick_session(self, lo: int = 0, hi: int | None = None, *, lines: int = 1) -> int:
        """A session in [lo, hi], preferring the less loaded ones."""
        hi = self.n_sessions - 1 if hi is None else hi
        lo = min(lo, hi)
        options = [s for s in range(lo, hi + 1) if self.load[s] + lines <= _MAX_BEAT_LINES]
        if not options:
            options = list(range(lo, hi + 1))
        weights = [max(1, _MAX_BEAT_LINES + 1 - self.load[s]) ** 2 for s in options]
        return self.rng.choices(options, weights)[0]

    def add_beat(self, lines: list[Line], session: int, after: Sequence[Line] = ()) -> Beat:
        """Schedule lines in ``session`` after the given earlier lines of the same session."""
        floor = 0.0
        for beat in self.beats:
            if beat.session == session and any(line in beat.lines for line in after):
                floor = max(floor, beat.key)
        key = floor + (1.0 - floor) * self.rng.uniform(0.05, 0.9)
        beat = Beat(lines, session, key)
        self.beats.append(beat)
        self.load[session] += len(lines)
        return beat

    # ---- text

    def text(self, template: str, fields: dict[str, str], *, style: bool = True) -> str:
        rng = self.rng
        if style and rng.random() < 0.06:
            template = add_typo(template, rng)
        out = template.format(**fields)
        if not style:
            return out
        first = re.match(r"[\w'-]+", out)
        proper = first is not None and (first.group().removesuffix("'s") in self.proper)
        roll = rng.random()
        if roll < 0.12 and not out.startswith(_NO_PREFIX):
            out = rng.choice(PREFIXES) + (out if proper else out[:1].lower() + out[1:])
        elif roll < 0.22 and not proper:
            out = out[:1].lower() + out[1:]
        roll = rng.random()
        if roll < 0.15 and out.endswith("."):
            out = out[:-1]
        elif roll < 0.22 and out.endswith("."):
            out = out[:-1] + rng.choice(SUFFIXES)
        return out

    def draw(self, kind: str, pool: Sequence[str]) -> str:
        used = self.used_values.setdefault(kind, set())
        free = [v for v in pool if v not in used] or list(pool)
        value = self.rng.choice(free)
        used.add(value)
        return value

    def draw_one(self, kind: str, pool: Sequence[T]) -> T:
        """An item of ``pool`` this user has not drawn yet (by position)."""
        return pool[int(self.draw(kind, [str(i) for i in range(len(pool))]))]

    def person_fields(self, person: Person, *, pronoun: bool = False) -> dict[str, str]:
        subj = person.he if pronoun else person.name
        subjs = person.his if pronoun else f"{person.name}'s"
        return {
            "Subj": cap(subj),
            "subj": subj,
            "Subjs": cap(subjs),
            "subjs": subjs,
            "subjo": person.him if pronoun else person.name,
            "he": person.he,
            "his": person.his,
            "him": person.him,
            "name": person.name,
        }

    def rel_label(self, spec: tuple[str, str, str, str]) -> str:
        return spec[0] if self.locale == "US" else spec[1]

    # ---- people

    def make_people(self) -> None:
        rng = self.rng
        n_people = rng.randint(5, min(10, self.n_sessions + 2))  # fewer sessions, fewer people
        while True:  # at least three people who can have a child, partner or pet of their own
            specs = [
                rng.choice(REL_GROUPS[g]) for g in rng.sample(range(len(REL_GROUPS)), n_people)
            ]
            if sum(self.rel_label(spec) not in NO_HUB for spec in specs) >= 3:
                break
        shared = rng.sample(SHARED_NAMES, 2)
        used_names: set[str] = set()
        for i, spec in enumerate(specs):
            gender = spec[2] or rng.choice("fm")
            if i < len(shared) and not spec[2]:
                name, gender = shared[i]
            else:
                pool = [n for n in (FEMALE if gender == "f" else MALE) if n not in used_names]
                name = rng.choice(pool)
            used_names.add(name)
            self.people.append(Person(name, gender, self.rel_label(spec), spec[3]))
        # Shared names must appear: put the leftovers on gendered relationships.
        for name, gender in shared:
            if name not in used_names:
                for person in self.people:
                    if person.gender == gender and person.name not in {n for n, _ in shared}:
                        person.name = name
                        used_names.add(name)
                        break
        self.proper.update(used_names)
        self.used_names = used_names

    def new_name(self, gender: str) -> str:
        pool = [n for n in (FEMALE if gender == "f" else MALE) if n not in self.used_names]
        name = self.rng.choice(pool)
        self.used_names.add(name)
        self.proper.add(name)
        return name

    def introduce(self, person: Person) -> None:
        rng = self.rng
        session = self.pick_session(0, (self.n_sessions - 1) // 2)
        template = rng.choice(INTRO[person.cls])
        rel = person.rel or ""
        if rel in OUR_RELS and rng.random() < 0.5:
            template = template.replace("my {rel}", "our {rel}").replace("My {rel}", "Our {rel}")
        fields = {"rel": rel, "name": person.name, "him": person.him}
        line = Line(self.text(template, fields), mood="fact", about=person.name)
        person.intro = line
        self.add_beat([line], session)
        person.intro_session = session

    def value_fields(self, kind: str, person: Person | None) -> tuple[dict[str, str], str]:
        rng = self.rng
        child = person is not None and person.drel in ("daughter", "son")
        if kind == "allergy":
            v = self.draw("allergy", ALLERGENS)
            return {"v": v, "va": ALLERGY_NOUN.get(v, v)}, v
        if kind == "job":
            v = self.draw("job", JOBS)
            return {"v": v, "a_v": with_article(v)}, v
        if kind == "hobby":
            v = self.draw("hobby", KID_HOBBIES if child else HOBBIES)
            return {"v": v}, v
        if kind == "pet":
            breed, species = rng.choice(BREEDS)
            pet = self.draw("pet", PET_NAMES)
            self.proper.add(pet)
            return {"breed": breed, "species": species, "pet": pet}, f"a {breed} named {pet}"
        if kind == "birthday":
            month, mday = self.draw("bday", BIRTHDAYS).split("-")
            day = date(2000, int(month), int(mday))
            age = rng.randint(5, 12) if child else rng.randint(25, 75)
            return (
                {"bday": say_date(day, rng), "age": str(age)},
                f"{MONTHS[day.month - 1]} {day.day}",
            )
        if kind == "lives":
            v = self.draw("city", CITIES)
            self.proper.add(v.split()[0])
            return {"v": v}, v
        if kind == "food":
            v = self.draw("food", FOODS)
            return {"v": v}, v
        if kind == "school":
            v = self.draw("school", SCHOOLS)
            return {"v": v}, v
        if kind == "team":
            v = self.draw("team", TEAMS)
            return {"v": v, "tv": v.removeprefix("the ")}, v
        raise ValueError(kind)

    def person_fact(
        self,
        person: Person,
        kind: str,
        *,
        lo: int,
        after: Sequence[Line] = (),
        pronoun: bool | None = None,
    ) -> Fact:
        """Say one fact about ``person`` in a session >= lo, maybe as a pronoun follow-up."""
        rng = self.rng
        if pronoun is None:
            pronoun = rng.random() < 0.3
        values, answer = self.value_fields(kind, person)
        session = self.pick_session(lo, lines=2 if pronoun else 1)
        if lo < self.n_sessions - 1 and session == lo and rng.random() < 0.4:
            session = self.pick_session(lo + 1, lines=2 if pronoun else 1)
        templates = PERSON_SAY[kind]
        if pronoun:  # the pet/birthday forms that open with the pet's name read oddly
            templates = tuple(t for t in templates if not t.startswith("{pet}"))
        fields = {**self.person_fields(person, pronoun=pronoun), **values}
        line = Line(self.text(rng.choice(templates), fields), about=person.name)
        lines = [line]
        if pronoun:
            lines = [self.mention(person), line]
        self.add_beat(lines, session, after)
        fact = Fact(kind, answer, line, values, session)
        person.facts[kind] = fact
        return fact

    def mention(self, person: Person) -> Line:
        reply = self.rng.choice(MENTION_REPLY).format(**self.person_fields(person))
        return Line(
            self.text(self.rng.choice(MENTION), {"name": person.name}), mood="chat", reply=reply
        )

    # ---- questions

    def ask(self, template: str, who: str, person: Person, extra: dict[str, str]) -> str:
        fields = {
            "who": who,
            "Who": cap(who),
            "whos": f"{who}'s",
            "Whos": cap(f"{who}'s"),
            "their": person.his,
            "them": person.him,
            **extra,
        }
        return cap(template.format(**fields))

    def build(self) -> None:
        rng = self.rng
        self.make_people()
        for person in self.people:
            self.introduce(person)
        first_degree = list(self.people)

        # Second-degree people (children, partners, pets of people the user knows).
        hubs = rng.sample([p for p in first_degree if p.rel not in NO_HUB], 3)
        multi: list[Question] = [self.dependent(hub) for hub in hubs[:2]]
        multi.append(self.pet_chain(hubs[2]))

        # Updates: one or two about people, the rest about the user.
        n_person_updates = rng.choice((1, 1, 2))
        user_kinds = rng.sample(USER_UPDATE_KINDS, QUOTA["updated"] - n_person_updates)
        for person in rng.sample(first_degree, n_person_updates):
            kinds = [
                k for k in PERSON_UPDATE_KINDS if k != "person_city" or person.rel not in COHABITING
            ]
            self.person_update(rng.choice(kinds), person)
        for kind in user_kinds:
            self.user_update(kind)
        # Facts about everyone else: 1-3 kinds per person (the pool for single-hop/relationship).
        for person in first_degree:
            free = [
                k
                for k in ADULT_KINDS
                if k not in person.facts and (k != "lives" or person.rel not in COHABITING)
            ]
            for kind in rng.sample(free, min(len(free), rng.randint(2, 3))):
                self.person_fact(
                    person,
                    kind,
                    lo=person.intro_session,
                    after=[person.intro] if person.intro else [],
                )
        attr = self.attribute_chain(first_degree)
        if attr is not None:
            multi.append(attr)
        rng.shuffle(multi)
        self.questions.extend(multi[: QUOTA["multi-hop"]])

        self.relationship_and_single(first_degree)
        self.user_statics()
        self.events()
        self.filler_and_assemble()

    def person_update(self, kind: str, person: Person) -> None:
        rng = self.rng
        say = UPDATE_SAY[kind]
        start = person.intro_session
        old_s = self.pick_session(start, max(start, self.n_sessions - 2))
        new_s = self.pick_session(old_s + 1) if old_s + 1 < self.n_sessions else old_s
        if kind == "person_job":
            old, new = self.draw("job", JOBS), self.draw("job", JOBS)
            values = {
                "old": old,
                "new": new,
                "a_old": with_article(old),
                "a_new": with_article(new),
            }
            fact_kind = "job"
        else:
            old, new = self.draw("city", CITIES), self.draw("city", CITIES)
            self.proper.update({old.split()[0], new.split()[0]})
            values = {"old": old, "new": new}
            fact_kind = "lives"
        old_line = Line(self.text(rng.choice(say["old"]), {**self.person_fields(person), **values}))
        self.add_beat([old_line], old_s, [person.intro] if person.intro else [])
        new_line = Line(
            self.text(
                rng.choice(say["new"]), {**self.person_fields(person, pronoun=True), **values}
            ),
            mood="news",
        )
        self.add_beat([self.mention(person), new_line], new_s, [old_line])
        person.facts[fact_kind] = Fact(fact_kind, new, new_line, values, new_s, used=True)
        who = f"my {person.rel}" if rng.random() < 0.75 else person.name
        self.questions.append(
            Question(
                "updated",
                self.ask(rng.choice(say["ask"]), who, person, {}),
                new,
                [new_line],
                [old_line],
            )
        )

    def user_update(self, kind: str) -> None:
        rng = self.rng
        say = UPDATE_SAY[kind]
        pools = {
            "city": CITIES,
            "job": COMPANIES,
            "show": SHOWS,
            "book": BOOKS,
            "band": BANDS,
            "car": CARS,
            "diet": DIETS,
        }
        old, new = self.draw(kind, pools[kind]), self.draw(kind, pools[kind])
        self.user_facts.add(kind)
        old_s = self.pick_session(0, self.n_sessions - 2)
        new_s = self.pick_session(old_s + 1)
        role = rng.choice(USER_ROLES)
        values = {"old": old, "new": new, "role": role, "a_role": with_article(role)}
        self.proper.update({old.split()[0], new.split()[0]})
        old_line = Line(self.text(rng.choice(say["old"]), values))
        self.add_beat([old_line], old_s)
        when_day = None
        if kind == "job":
            phrase, when_day = past_phrase(self.dates[new_s], rng)
            values |= {"when": phrase, "When": cap(phrase)}
        new_line = Line(self.text(rng.choice(say["new"]), values), mood="news")
        self.add_beat([new_line], new_s)
        self.questions.append(
            Question("updated", cap(rng.choice(say["ask"])), new, [new_line], [old_line])
        )
        if when_day is not None:
            self.event_days[when_day] += 1
            ask = rng.choice(
                (
                    "When did I start at {new}?",
                    "When was my first day at {new}?",
                    "What date did I join {new}?",
                )
            )
            self.temporal_pool.append(
                Question("temporal", ask.format(new=new), when_day.isoformat(), [new_line])
            )

    def dependent(self, hub: Person) -> Question:
        """A child or partner of ``hub``, linked in one turn, with a fact in another."""
        rng = self.rng
        if rng.random() < 0.6:
            kind_of, gender = "child", rng.choice("fm")
            drel = "daughter" if gender == "f" else "son"
            kinds = CHILD_KINDS
        else:
            kind_of, gender = "partner", "m" if hub.gender == "f" else "f"
            if rng.random() < 0.15:
                gender = hub.gender
            drel = (
                rng.choice(("wife", "partner"))
                if gender == "f"
                else rng.choice(("husband", "partner"))
            )
            kinds = PARTNER_KINDS
        person = Person(self.new_name(gender), gender, None, hub.cls, hub, drel)
        self.people.append(person)
        lo = hub.intro_session
        link_s = self.pick_session(lo)
        age = str(rng.randint(3, 12))
        fields = {"H": hub.name, "hpos": hub.his, "drel": drel, "Y": person.name, "age": age}
        link = Line(self.text(rng.choice(LINK_SAY[kind_of]), fields))
        self.add_beat([link], link_s, [hub.intro] if hub.intro else [])
        person.intro = link
        asked, *other = rng.sample(kinds, 2)
        fact = self.person_fact(person, asked, lo=link_s, after=[link], pronoun=False)
        fact.used = True
        if rng.random() < 0.7:
            self.person_fact(person, other[0], lo=link_s, after=[link])
        who = f"my {hub.rel}'s {drel}"
        question = self.ask(rng.choice(PERSON_ASK[asked]), who, person, fact.fields)
        return Question("multi-hop", question, fact.answer, [link, fact.line])

    def pet_chain(self, hub: Person) -> Question:
        rng = self.rng
        lo = hub.intro_session
        pet_fact = self.person_fact(
            hub, "pet", lo=lo, after=[hub.intro] if hub.intro else [], pronoun=False
        )
        pet_fact.used = True
        condition, answer = rng.choice(PET_CONDITIONS)
        fields = {"pet": pet_fact.fields["pet"], "v": condition}
        line = Line(self.text(rng.choice(PET_SAY), fields), mood="bad")
        self.add_beat([line], self.pick_session(pet_fact.session), [pet_fact.line])
        who = f"my {hub.rel}"
        question = self.ask(rng.choice(PET_ASK), who, hub, {"species": pet_fact.fields["species"]})
        return Question("multi-hop", question, answer, [pet_fact.line, line])

    def attribute_chain(self, people: list[Person]) -> Question | None:
        """'What does the one who lives in Oslo do?': find the person, then the fact."""
        rng = self.rng
        options = [
            (p, a, t)
            for p in people
            for a in ATTR_PHRASE
            for t in MULTI_TARGETS
            if a in p.facts
            and t in p.facts
            and a != t
            and not p.facts[a].used
            and not p.facts[t].used
        ]
        if not options:
            return None
        person, attr, target = rng.choice(options)
        a_fact, t_fact = person.facts[attr], person.facts[target]
        a_fact.used = t_fact.used = True
        who = rng.choice(ATTR_PHRASE[attr]).format(**a_fact.fields)
        templates = [t for t in PERSON_ASK[target] if "{whos}" not in t]
        question = self.ask(rng.choice(templates), who, person, {})
        return Question("multi-hop", question, t_fact.answer, [a_fact.line, t_fact.line])

    def relationship_and_single(self, people: list[Person]) -> None:
        rng = self.rng
        facts = [(p, f) for p in people for f in p.facts.values() if not f.used]
        rng.shuffle(facts)
        # Relationship questions: fact turn names the person, never the relationship.
        chosen = 0
        for person, fact in list(facts):
            if chosen == QUOTA["relationship"]:
                break
            if person.rel is None or person.rel in fact.line.text.lower():
                continue
            fact.used = True
            facts.remove((person, fact))
            q = self.ask(rng.choice(PERSON_ASK[fact.kind]), f"my {person.rel}", person, fact.fields)
            self.questions.append(Question("relationship", q, fact.answer, [fact.line]))
            chosen += 1
        # Single-hop by name: about half of the single-hop questions.
        for person, fact in facts[: QUOTA["single-hop"] // 2]:
            fact.used = True
            q = self.ask(rng.choice(PERSON_ASK[fact.kind]), person.name, person, fact.fields)
            self.questions.append(Question("single-hop", q, fact.answer, [fact.line]))
            self.single_by_name += 1

    def user_statics(self) -> None:
        rng = self.rng
        kinds = [k for k in STATIC_KINDS if k not in self.user_facts]
        need = QUOTA["single-hop"] - self.single_by_name
        for kind in rng.sample(kinds, need + 1):  # one more said but not asked
            session = self.pick_session()
            if kind == "health":
                spec = rng.choice(HEALTH)
                line = Line(self.text(rng.choice(spec["say"]), {}), mood="bad")
                question, answer = rng.choice(spec["ask"]), spec["answer"]
            else:
                spec = USER_STATIC[kind]
                fields, answer = self.static_fields(kind)
                line = Line(self.text(rng.choice(spec["say"]), fields))
                question = rng.choice(spec["ask"]).format(**fields)
            self.add_beat([line], session)
            if need > 0:
                self.questions.append(Question("single-hop", cap(question), answer, [line]))
                need -= 1

    def static_fields(self, kind: str) -> tuple[dict[str, str], str]:
        rng = self.rng
        if kind == "own_pet":
            breed, species = rng.choice(BREEDS)
            pet = self.draw("pet", PET_NAMES)
            self.proper.add(pet)
            return {"breed": breed, "species": species, "pet": pet}, pet
        if kind == "holiday":
            v = self.draw("place", PLACES)
            return {"v": v, "month": rng.choice(MONTHS)}, v
        if kind == "job":
            co = self.draw("job", COMPANIES)
            role = rng.choice(USER_ROLES)
            self.proper.add(co.split()[0])
            return {"co": co, "role": role, "a_role": with_article(role)}, f"{role} at {co}"
        pools = {
            "coffee": COFFEES,
            "language": LANGUAGES,
            "instrument": INSTRUMENTS,
            "cuisine": CUISINES,
            "team": TEAMS,
            "city": CITIES,
        }
        v = self.draw(kind, pools[kind])
        if kind == "city":
            self.proper.add(v.split()[0])
        return {"v": v}, v

    def events(self) -> None:
        """Dated events: asked ones for the temporal quota, plus unasked decoys."""
        rng = self.rng
        pool = list(self.temporal_pool)
        rng.shuffle(pool)
        pool = pool[:1]
        makers = [
            self.past_event,
            self.past_event,
            self.future_event,
            self.shared_event,
            self.person_event,
        ]
        rng.shuffle(makers)
        n_events = QUOTA["temporal"] - len(pool) + rng.randint(2, 3)
        for i in range(n_events):
            question = makers[i % len(makers)]()
            if question is not None:
                pool.append(question)
        asked = [q for q in pool if q is not None][: QUOTA["temporal"]]
        self.questions.extend(asked)

    def _event_day(self, session: int, future: bool = False) -> tuple[str, date]:
        for _ in range(20):
            phrase, day = (future_phrase if future else past_phrase)(self.dates[session], self.rng)
            if self.event_days[day] == 0:
                break
        self.event_days[day] += 1
        return phrase, day

    def past_event(self) -> Question:
        rng = self.rng
        spec = self.draw_one("past", PAST_EVENTS)
        fields = {
            "band": rng.choice(BANDS),
            "park": rng.choice(PARKS),
            "museum": rng.choice(MUSEUMS),
            "cuisine": rng.choice(CUISINES),
        }
        session = self.pick_session()
        phrase, day = self._event_day(session)
        say = spec["say"].format(**fields)
        line = Line(
            self.text(rng.choice(PAST_FORMS), {"say": say, "when": phrase, "When": cap(phrase)}),
            mood=spec.get("mood", "good"),
        )
        self.add_beat([line], session)
        if rng.random() < 0.5 or day in self.dates:  # "what did I do on <a session day>" is vague
            return Question(
                "temporal", rng.choice(spec["ask"]).format(**fields), day.isoformat(), [line]
            )
        question = rng.choice(DATE_ASK).format(date=say_date(day, rng, year=rng.random() < 0.5))
        return Question("temporal", question, spec["what"].format(**fields), [line])

    def future_event(self) -> Question:
        rng = self.rng
        spec = self.draw_one("future", FUTURE_EVENTS)
        fields = {"place": rng.choice(PLACES)}
        session = self.pick_session()
        phrase, day = self._event_day(session, future=True)
        form = rng.choice(
            (
                "{say} {when}.",
                "Heads up, {say} {when}.",
                "{say} {when}, ugh.",
                "Just booked it: {say} {when}.",
            )
        )
        line = Line(
            self.text(form, {"say": spec["say"].format(**fields), "when": phrase}), mood="plan"
        )
        line.text = cap(line.text)
        self.add_beat([line], session)
        return Question(
            "temporal", rng.choice(spec["ask"]).format(**fields), day.isoformat(), [line]
        )

    def shared_event(self) -> Question:
        rng = self.rng
        person = rng.choice([p for p in self.people if p.rel])
        say, ask, _what = self.draw_one("activity", ACTIVITIES)
        lo = person.intro_session
        session = self.pick_session(lo)
        phrase, day = self._event_day(session)
        form = rng.choice(SHARED_FORMS)
        line = Line(
            self.text(form, {"say": say, "name": person.name, "when": phrase, "When": cap(phrase)}),
            mood="good",
        )
        self.add_beat([line], session, [person.intro] if person.intro else [])
        who = f"my {person.rel}" if rng.random() < 0.6 else person.name
        question = self.ask(rng.choice(SHARED_ASK), who, person, {"ask": ask})
        return Question("temporal", question, day.isoformat(), [line])

    def person_event(self) -> Question:
        rng = self.rng
        person = rng.choice([p for p in self.people if p.rel])
        spec = self.draw_one("person_event", PERSON_EVENTS)
        lo = person.intro_session
        session = self.pick_session(lo)
        phrase, day = self._event_day(session)
        fields = self.person_fields(person)
        say = spec["say"].format(**fields)
        form = rng.choice(("{say} {when}!", "Big news, {say} {when}.", "{When} {say}."))
        line = Line(
            self.text(form, {"say": say, "when": phrase, "When": cap(phrase)}),
            mood="news" if "surgery" not in say and "broke" not in say else "bad",
        )
        self.add_beat([line], session, [person.intro] if person.intro else [])
        who = f"my {person.rel}" if rng.random() < 0.6 else person.name
        question = self.ask(rng.choice(spec["ask"]), who, person, {})
        return Question("temporal", question, day.isoformat(), [line])

    # ---- sessions

    def filler_line(self) -> Line:
        rng = self.rng
        roll = rng.random()
        if roll < 0.14:
            return Line(self.text(self.draw("talk", SMALL_TALK), {}), mood="chat")
        if roll < 0.26:
            return Line(self.text(self.draw("grumble", GRUMBLES), {}), mood="grumble")
        if roll < 0.45:
            ask, reply = self.draw_one("request", REQUESTS)
            return Line(self.text(ask, {}, style=False), mood="ask", reply=reply)
        person = rng.choice(self.people)
        if roll < 0.57:
            return Line(
                self.text(self.draw("name_distract", NAME_DISTRACT), {"name": person.name}),
                mood="chat",
            )
        if roll < 0.75:  # a person and a topic, but no value: near misses for every retriever
            kind = rng.choice(ADULT_KINDS)
            return Line(
                self.text(rng.choice(TOPIC_DECOYS[kind]), self.person_fields(person)), mood="chat"
            )
        if roll < 0.85 and person.rel:
            return Line(
                self.text(self.draw("rel_decoy", REL_DECOYS), {"rel": person.rel}), mood="chat"
            )
        breed, _species = rng.choice(BREEDS)
        allergen = rng.choice(ALLERGENS)
        fields = {
            "city": rng.choice(CITIES),
            "food": rng.choice(FOODS),
            "hobby": rng.choice(HOBBIES),
            "allergen": ALLERGY_NOUN.get(allergen, allergen),
            "tteam": rng.choice(TEAMS).removeprefix("the "),
            "a_job": with_article(rng.choice(JOBS)),
            "breed": breed,
        }
        return Line(self.text(self.draw("distract", DISTRACT), fields), mood="chat")

    def filler_and_assemble(self) -> None:
        rng = self.rng
        for s in range(self.n_sessions):
            beats = sorted((b for b in self.beats if b.session == s), key=lambda b: b.key)
            content = sum(len(b.lines) for b in beats)
            total = max(rng.randint(MIN_TURNS, MAX_TURNS), math.ceil((content + 2) / 0.62))
            total = min(total, MAX_TURNS)
            n_user = max(content + 1, round(total * rng.uniform(0.56, 0.64)))
            n_filler = n_user - content
            opener = rng.random() < 0.3
            units: list[list[Line]] = [b.lines for b in beats]
            greeting = (
                None if opener or rng.random() < 0.3 else Line(rng.choice(GREETINGS), mood="greet")
            )
            closing = Line(rng.choice(CLOSINGS), mood="close") if rng.random() < 0.5 else None
            n_filler -= (greeting is not None) + (closing is not None)
            for _ in range(max(0, n_filler)):
                units.insert(rng.randint(0, len(units)), [self.filler_line()])
            if greeting:
                units.insert(0, [greeting])
            if closing:
                units.append([closing])
            lines = [line for unit in units for line in unit]
            n_assist = max(0, total - len(lines) - opener)
            forced = [i for i, line in enumerate(lines) if line.reply]
            optional = [i for i, line in enumerate(lines) if not line.reply]
            rng.shuffle(optional)
            replied = set(forced) | set(optional[: max(0, n_assist - len(forced))])
            self.emit_session(s, lines, replied, opener)

    def emit_session(self, s: int, lines: list[Line], replied: set[int], opener: bool) -> None:
        rng = self.rng
        session_id = f"{self.user_id}-s{s + 1:02d}"
        start = datetime(
            self.dates[s].year,
            self.dates[s].month,
            self.dates[s].day,
            rng.randint(7, 20),
            rng.randint(0, 59),
            rng.randint(0, 59),
            tzinfo=UTC,
        )
        clock = start
        turn = 0

        def emit(speaker: str, text: str) -> None:
            nonlocal clock, turn
            self.turns.append(
                {
                    "user_id": self.user_id,
                    "session_id": session_id,
                    "turn": turn,
                    "speaker": speaker,
                    "text": text,
                    "timestamp": clock.strftime("%Y-%m-%dT%H:%M:%SZ"),
                }
            )
            turn += 1
            clock += timedelta(seconds=rng.randint(15, 150))

        if opener:
            emit("assistant", rng.choice(OPENERS))
        for i, line in enumerate(lines):
            line.pos = (session_id, turn)
            emit("user", line.text)
            if i in replied:
                reply = line.reply or rng.choice(REPLIES[line.mood])
                if line.about and not line.reply and rng.random() < 0.3:
                    reply = rng.choice(PROBES).format(name=line.about)
                emit("assistant", reply)


# --------------------------------------------------------------------------- output


def _ref(line: Line) -> dict[str, object]:
    assert line.pos is not None
    return {"session_id": line.pos[0], "turn": line.pos[1]}


def generate(n_users: int = DEFAULT_USERS, seed: int = DEFAULT_SEED) -> dict[str, list[dict]]:
    """Build the dataset in memory: lists of turn, question and person records."""
    conversations: list[dict] = []
    questions: list[dict] = []
    people: list[dict] = []
    for index in range(n_users):
        world = UserWorld(index, seed)
        world.build()
        conversations.extend(world.turns)
        order = sorted(world.questions, key=lambda q: CATEGORIES.index(q.category))
        for k, q in enumerate(order, start=1):
            record: dict[str, object] = {
                "qid": f"{world.user_id}-q{k:02d}",
                "user_id": world.user_id,
                "question": q.question,
                "category": q.category,
                "expected": [_ref(line) for line in q.expected],
                "answer": q.answer,
                "asked_at": f"{world.asked_at.isoformat()}T12:00:00Z",
            }
            if q.superseded:
                record["superseded"] = [_ref(line) for line in q.superseded]
            questions.append(record)
        for person in world.people:
            people.append(
                {
                    "user_id": world.user_id,
                    "name": person.name,
                    "relationship": person.rel or person.drel,
                    "of": person.hub.name if person.hub else None,
                }
            )
    return {"conversations": conversations, "questions": questions, "people": people}


def write_jsonl(path: Path, records: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def summary(data: dict[str, list[dict]]) -> dict[str, object]:
    """Counts for the README and the report."""
    turns = data["conversations"]
    sessions = {t["session_id"] for t in turns}
    by_cat = Counter(q["category"] for q in data["questions"])
    return {
        "users": len({t["user_id"] for t in turns}),
        "sessions": len(sessions),
        "turns": len(turns),
        "user_turns": sum(t["speaker"] == "user" for t in turns),
        "questions": len(data["questions"]),
        "categories": {c: by_cat[c] for c in CATEGORIES},
        "people": len(data["people"]),
    }


README = """\
# graphmem recall evaluation set

Synthetic long-term conversations between {users} users and an assistant, with
{questions} questions whose evidence turns are known exactly. Generated by
`bench/data/make_eval.py` (seed {seed}); do not edit by hand, regenerate instead:

    python bench/data/make_eval.py                       # rewrites this directory
    python bench/data/make_eval.py --users 200 --out DIR # scale variant (not committed)

The output depends only on `--seed` and `--users`, and user *i* is identical in every
size, so these users are the first users of every scale variant.

## What is in it

| | count |
|---|---|
| users | {users} |
| sessions | {sessions} (4-8 per user, weeks apart, spread over months) |
| turns | {turns} ({user_turns} user, {assistant_turns} assistant) |
| people (first and second degree) | {people} |
| questions | {questions} |
{category_rows}

Each user has 5-10 people with a relationship ("my sister Alice", "Bob, my manager",
"our neighbour Tom"), drawn from a diverse name pool; two names per user come from a small
shared pool (Alice, Tom, Priya, Bob, Maria, Omar, Mei, Jack) with different relationships
and facts in every user, to test tenant isolation. Facts cover people (allergies, jobs,
hobbies, pets, birthdays, cities, food, teams; children and partners of people the user
knows) and the user (job, city, health constraints, plans, preferences). Some facts change
in a later session (moved city, new job, new favourite show, a friend's new job), and
about 30% of person facts are pronoun follow-ups ("Talked to Alice for an hour." ...
"She just started a new job as a pilot."). Events carry relative dates ("yesterday",
"last Friday", "this Thursday") or absolute ones ("on March 3rd"), resolved against the
session date. Wording varies (several templates per fact, prefixes, dropped punctuation,
occasional typos, US or UK relationship words per user: mom/mum, neighbor/neighbour), and
sessions are padded with small talk, requests to the assistant and near misses: a person
and a topic without the value ("Must double-check Tom's allergies before the dinner
party."), "my sister" turns with no fact, assistant follow-up questions ("What does Tom do,
by the way?"), names mentioned in passing and fact words in other contexts.

## Question categories

- **single-hop**: one direct fact, asked by name or about the user ("What is Tom allergic to?").
- **relationship**: asked by relationship ("What is my sister allergic to?"); the evidence
  turn names the person (or says "she"), and a *different, earlier* turn establishes the
  relationship. Only the fact turn is expected.
- **multi-hop**: needs two turns, both expected: a person reached through another
  ("Where does my manager's daughter go to school?": the turn linking the daughter to the
  manager + the turn with the school), a pet's health ("What's wrong with my sister's
  dog?"), or a person found by one fact and asked about another ("What does the one who
  lives in Oslo do for a living?").
- **temporal**: when something happened or is planned, or what happened on a date; the
  answer is an ISO date (or the event), resolved from the relative date in the evidence.
- **updated**: the current value of a fact that changed; `expected` is the latest turn
  only and `superseded` lists the older statement(s).

## Format

`conversations.jsonl`, one record per turn, ordered by user, session, turn:

    {{"user_id": "u001", "session_id": "u001-s01", "turn": 0, "speaker": "user",
     "text": "...", "timestamp": "2023-05-14T18:04:12Z"}}

`turn` is 0-based within the session; the first turn's timestamp is the session date.
`speaker` is `user` or `assistant`.

`questions.jsonl`, one record per question:

    {{"qid": "u001-q01", "user_id": "u001", "question": "...", "category": "single-hop",
     "expected": [{{"session_id": "u001-s02", "turn": 7}}], "answer": "peanuts",
     "asked_at": "2023-11-02T12:00:00Z"}}

`expected` lists the `(session_id, turn)` of every evidence turn (always user turns).
Score any extractor or retriever by turn: a recall hit counts when a returned card's source
turn (its provenance `session_id` and `turn`) is an expected turn; for multi-hop count the
fraction of expected turns found. Updated questions also carry `superseded`: returning it
*instead of* the expected turn is the stale-answer failure. `asked_at` is a moment after
the user's last session ("now" for the question).

`people.jsonl`: the ground-truth people per user: `name`, `relationship` (to the user, or
to `of` for second-degree people such as a manager's daughter). Useful to score
relationship extraction.
"""


def write(data: dict[str, list[dict]], out: Path, seed: int = DEFAULT_SEED) -> dict[str, object]:
    """Write the three JSONL files and the README into ``out``; return the counts."""
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "conversations.jsonl", data["conversations"])
    write_jsonl(out / "questions.jsonl", data["questions"])
    write_jsonl(out / "people.jsonl", data["people"])
    stats = summary(data)
    cats = stats["categories"]
    total = stats["questions"]
    assert isinstance(cats, dict)
    assert isinstance(total, int)
    rows = "\n".join(f"| {c} | {n} ({100 * n / total:.0f}%) |" for c, n in cats.items())
    text = README.format(
        seed=seed, category_rows=rows, assistant_turns=stats["turns"] - stats["user_turns"], **stats
    )
    (out / "README.md").write_text(text, encoding="utf-8", newline="\n")
    return stats


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=DEFAULT_USERS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    stats = write(generate(args.users, args.seed), args.out, args.seed)
    print(json.dumps(stats), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
