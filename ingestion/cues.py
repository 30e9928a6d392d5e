"""The word lists the non-LLM extractor relies on, in one place so they can be read and tuned.

Everything here is a documented heuristic, not a model: small talk to skip, relationship
nouns, and the cues behind a card's category, importance and emotional intensity.
"""

from __future__ import annotations

import re

from graphmem.models import Category

#: Whole sentences that carry no fact (compared after lowercasing and dropping punctuation).
SMALL_TALK = frozenset({
    "ok", "okay", "k", "kk", "thanks", "thank you", "thanks a lot", "thank you so much", "thx",
    "ty", "cool", "nice", "great", "awesome", "sure", "yes", "yeah", "yep", "yup", "no", "nope",
    "haha", "hahaha", "lol", "lmao", "hehe", "sounds good", "sounds great", "sounds fun",
    "got it", "i see", "makes sense", "of course", "no problem", "no worries", "np",
    "you're welcome", "youre welcome", "bye", "goodbye", "see you", "see ya", "see you soon",
    "talk soon", "good night", "good morning", "good evening", "hi", "hello", "hey",
    "hi there", "hello there", "hey there", "how are you", "i'm fine", "im fine", "i'm good",
    "im good", "i'm doing well", "doing well", "not bad", "not much", "me too", "same",
    "same here", "alright", "all right", "right", "exactly", "wow", "oh", "hmm", "good to know",
    "love it", "perfect", "interesting", "that's great", "thats great", "that's nice",
    "that's cool", "that sounds great", "that sounds good", "good luck", "congrats",
    "congratulations", "take care", "have fun", "will do", "agreed", "indeed", "true",
})

#: Words dropped from the start of a sentence before it becomes a fact ("Haha, I ...").
LEADING_FILLERS = frozenset({
    "ok", "okay", "oh", "well", "haha", "hahaha", "lol", "yeah", "yes", "so", "hey", "hi",
    "hello", "um", "uh", "hmm", "anyway", "anyways", "btw", "also", "and", "but", "wow",
})

#: Nouns naming someone's relationship to the speaker ("my sister", "our neighbour").
RELATIONSHIPS = frozenset({
    "mother", "mom", "mum", "father", "dad", "parent", "sister", "brother", "sibling", "son",
    "daughter", "kid", "child", "wife", "husband", "partner", "spouse", "fiancé", "fiancée",
    "fiance", "fiancee", "boyfriend", "girlfriend", "cousin", "aunt", "uncle", "niece",
    "nephew", "grandmother", "grandma", "grandfather", "grandpa", "granddaughter", "grandson",
    "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "stepmother",
    "stepfather", "stepsister", "stepbrother", "twin", "friend", "best friend", "roommate",
    "flatmate", "housemate", "neighbour", "neighbor", "ex", "classmate", "manager", "boss",
    "colleague", "coworker", "co-worker", "teammate", "team lead", "mentor", "mentee",
    "client", "supervisor", "cofounder", "co-founder", "intern", "doctor", "dentist",
    "therapist", "coach", "teacher", "tutor", "landlord", "lawyer", "accountant", "trainer",
    # everyday and British variants
    "landlady", "stepmum", "stepmom", "stepdad", "stepson", "stepdaughter", "gran", "granny",
    "nan", "nana", "grandad", "granddad", "auntie", "godmother", "godfather", "godson",
    "goddaughter", "workmate", "work mate", "work friend", "school friend", "uni friend",
    "college friend", "childhood friend", "family friend", "buddy", "gym buddy",
    "running buddy", "pal", "bestie", "carer", "babysitter", "nanny", "vet", "physio",
})

#: Animals and common breeds: "Ji-woo's labrador, Socks" makes Socks a pet of Ji-woo, and a
#: fact about Socks a fact for Ji-woo (a pet is reached through its owner).
PETS = frozenset({
    "dog", "cat", "puppy", "pup", "kitten", "rabbit", "bunny", "hamster", "guinea pig",
    "parrot", "budgie", "tortoise", "turtle", "horse", "pony", "ferret", "snake", "lizard",
    "gecko", "goldfish", "fish", "rat", "mouse", "chinchilla", "cockatiel", "labrador", "lab",
    "retriever", "staffy", "spaniel", "terrier", "poodle", "beagle", "collie", "border collie",
    "dachshund", "greyhound", "whippet", "pug", "husky", "corgi", "schnauzer", "sheepdog",
    "shepherd", "boxer", "rottweiler", "chihuahua", "cockapoo", "labradoodle", "tabby",
    "siamese", "ragdoll", "persian", "maine coon", "bengal", "sphynx", "moggy",
})

#: Nouns that belong to a person: "Aisha's birthday" names a person even when spaCy tags
#: "Aisha" as a place.
PERSONAL_NOUNS = frozenset({
    "birthday", "job", "work", "flat", "house", "apartment", "place", "allergy", "allergies",
    "passion", "hobby", "favourite", "favorite", "wedding", "health", "diet", "car", "phone",
    "family", "kids", "name", "party", "team", "office", "school", "degree", "wife", "husband",
})

#: Relationships that tell a person's gender, so "she" is not resolved to a brother.
FEMALE_RELATIONSHIPS = frozenset({
    "mother", "mom", "mum", "sister", "daughter", "wife", "girlfriend", "fiancée", "fiancee",
    "aunt", "auntie", "niece", "grandmother", "grandma", "gran", "granny", "nan", "nana",
    "granddaughter", "mother-in-law", "sister-in-law", "stepmother", "stepmum", "stepmom",
    "stepsister", "stepdaughter", "landlady", "godmother", "goddaughter"})
MALE_RELATIONSHIPS = frozenset({
    "father", "dad", "brother", "son", "husband", "boyfriend", "fiancé", "fiance", "uncle",
    "nephew", "grandfather", "grandpa", "grandad", "granddad", "grandson", "father-in-law",
    "brother-in-law", "stepfather", "stepdad", "stepbrother", "stepson", "landlord",
    "godfather", "godson"})

#: Adjectives dropped from a relationship ("older sister" -> "sister").
RELATIONSHIP_MODIFIERS = frozenset({"older", "younger", "little", "big", "elder", "baby", "new",
                                    "old", "dear"})

#: Category cues, checked in this order; the first category with a cue wins.
#: Each entry: category, base importance, lemmas/phrases that signal it.
CATEGORY_CUES: tuple[tuple[Category, float, frozenset[str]], ...] = (
    (Category.CONSTRAINT, 0.9, frozenset({
        "allergic", "allergy", "allergies", "intolerant", "intolerance", "never", "must",
        "can't eat", "cannot eat", "can't have", "vegan", "vegetarian", "kosher", "halal",
        "avoid", "not allowed", "forbidden", "deadline", "gluten-free", "gluten"})),
    (Category.HEALTH, 0.8, frozenset({
        "doctor", "sick", "ill", "pain", "diagnose", "surgery", "medication", "medicine",
        "hospital", "pregnant", "injury", "injure", "therapy", "asthma", "diabetes", "migraine",
        "symptom", "blood pressure", "covid", "flu", "sleep", "insomnia", "depression"})),
    (Category.PREFERENCE, 0.6, frozenset({
        "love", "like", "prefer", "favorite", "favourite", "enjoy", "hate", "dislike",
        "fan of", "adore", "can't stand"})),
    (Category.EMOTION, 0.6, frozenset({
        "feel", "afraid", "scared", "anxious", "worried", "worry", "happy", "sad", "angry",
        "upset", "stressed", "excited", "nervous", "lonely", "proud", "frustrated", "grateful",
        "terrified", "overwhelmed", "depressed"})),
    (Category.WORK, 0.6, frozenset({
        "job", "work", "manager", "boss", "colleague", "office", "project", "promote",
        "promotion", "hire", "fire", "salary", "meeting", "client", "team", "career", "ship",
        "release", "interview", "company", "startup", "quit"})),
    (Category.LIFE, 0.6, frozenset({
        "move", "live", "born", "marry", "married", "wedding", "divorce", "baby", "house",
        "apartment", "flat", "birthday", "family", "graduate", "school", "university", "pet",
        "dog", "cat", "adopt", "home", "rent"})),
    (Category.STRATEGY, 0.7, frozenset({
        "plan", "strategy", "approach", "decide", "solution", "works best", "trick", "habit",
        "routine", "try", "goal"})),
    (Category.EVENT, 0.5, frozenset({
        "go", "visit", "meet", "trip", "party", "concert", "travel", "attend", "celebrate",
        "dinner", "lunch", "vacation", "holiday", "flight", "fly", "race", "match", "marathon"})),
)
OTHER_IMPORTANCE = 0.4

#: Emotional intensity: strong and moderate cues, intensifiers add a little.
EMOTION_STRONG = frozenset({"love", "hate", "adore", "terrified", "furious", "devastated",
                            "thrilled", "heartbroken", "ecstatic", "can't stand", "despise"})
EMOTION_MODERATE = frozenset({"like", "enjoy", "afraid", "scared", "worried", "worry", "happy",
                              "sad", "angry", "upset", "excited", "nervous", "stressed",
                              "anxious", "lonely", "proud", "frustrated", "miss", "fear",
                              "dislike", "grateful", "overwhelmed"})
INTENSIFIERS = frozenset({"really", "so", "very", "extremely", "absolutely", "totally", "super"})

#: Words that make a fact matter more whatever its category.
IMPORTANCE_BOOST = frozenset({"important", "always", "never", "must", "seriously", "critical"})

#: Cues that a sentence speaks of the future (a bare weekday then points forward).
FUTURE_CUES = re.compile(r"\b(will|'ll|gonna|going to|plan(?:ning)? to|next|upcoming|soon)\b",
                         re.IGNORECASE)


def normalise(text: str) -> str:
    """Lowercase, drop punctuation and emoji, collapse spaces (for small-talk lookups).

    >>> normalise("Thanks!!  😊")
    'thanks'
    """
    text = re.sub(r"[^\w\s'-]", " ", text.lower().replace("’", "'"))
    return " ".join(text.split())


def cues_in(lemmas: set[str], text: str, cues: frozenset[str]) -> set[str]:
    """The cues present as a lemma, or (multi-word cues) as a phrase of ``text``."""
    found = lemmas & cues
    found |= {cue for cue in cues if " " in cue and cue in text}
    return found
