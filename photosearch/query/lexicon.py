"""Word lists the request parser uses: fillers, connectives, cameras, kinds, counts, plurals."""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Words that carry no search meaning in a request (dropped; they do not split concept phrases).
STOP_WORDS = _words("""
a an the my our your his her their its this that these those some any all every of to i we you me
is are was were be been being am it they them there here which who whom whose what where when how
do does did have has had having will would can could should shall may might must let lets please
just really very quite also too so then than as such else soon one ones thing things stuff something anything everyone everybody everything
show showing shown find finding get give gimme see look looking search searching want need display list
he she him i've we've you've they've i'd we'd you'd they'd
pull bring up out photos photo pictures picture pics pic images image shots shot snaps snap snapshots
fotos foto photoes most photography
snapshot pix where's that's it's i'm we're by for into onto upon going asleep awake say says said time
teh plz pls frm mostly mainly predominantly each away vid vids earlier
taken took captured made ate eaten went visited met sent received shared posted uploaded downloaded close-up close-ups closeup closeups like best nicest finest greatest
biggest largest smallest tiniest tallest
cute adorable beautiful lovely gorgeous stunning amazing awesome wonderful famous
pretty funny silly cutest prettiest funniest silliest loveliest coolest sweetest
lol lols haha hahaha lmao omg
everywhere anywhere somewhere remember remembered recall remind later exactly
""")

#: Phrases that carry no search meaning (dropped, like STOP_WORDS): how a photo was shot, how many
#: of a thing no model counts ("lots of flowers").
FILLER_PHRASES = (
    "how many",  # "how many photos of the dog do I have": the dog
    "got any",  # "got any with the grandkids": the grandkids
    # a few photos, a slideshow of them: the photos of what follows ("a few good ones from the wedding")
    "a few good ones",
    "a few nice ones",
    "a few photos of",
    "a few pictures of",
    "a few shots of",
    "a few pics of",
    "a slideshow of",
    "slideshow of",
    # how the photo was taken, which no model reads: "anna smiling at the camera" is Anna
    "at the camera",
    "into the camera",
    # how long ago someone was seen: "people I haven't seen in years" are people
    "years ago",  # "photos from years ago" (a date claims "3 years ago" first)
    "that day",  # "the photos from that day at the zoo": the zoo
    # what a photo looks like, said before the thing: "looks like a postcard" is a postcard
    "that looks like",
    "looks like",
    "look like",
    "resembling",
    "in the style of",
    "a long time ago",  # too vague to search, like "ages ago"
    "way back when",
    "way back",
    "every year",  # "christmas every year": any year's ("photos from every year" is one per year)
    "each year",
    "in years",
    "for years",
    "in ages",
    "for ages",
    # a time too vague to search: "that dog photo from ages ago" is the dog
    "a while ago",
    "a while back",
    "long ago",
    "ages ago",
    "back in",  # "back in 2012": the year
    "of the year",  # "the first snow of the year": the snow
    "so far",  # "so far this year": this year
    # "photos form paris": "from" mistyped, after a photo word
    *(f"{photo} form" for photo in ("photos", "photo", "pictures", "picture", "pics", "pix", "images")),
    # who sees it: "photos where you can read the word coffee" are photos with the word coffee
    *(
        f"{where}{who} can {see}"
        for where in ("where ", "")
        for who in ("you", "i", "we")
        for see in ("read", "see")
    ),
    "close ups",
    "close up",
    "up close",
    "lots of",
    "a lot of",
    "loads of",
    "plenty of",
    "a bunch of",
    # what the photos are wanted for, which no photo shows: "blurry photos to delete" are blurry
    # photos, "duplicates to clean up" the duplicates
    *(
        f"to {what}"
        for what in (
            "delete",
            "clean up",
            "clean out",
            "remove",
            "get rid of",
            "throw away",
            "print",
            "share",
            "post",
            "send",
            "edit",
            "sort",
            "sort out",
            "organize",
            "organise",
            "back up",
            "frame",
        )
    ),
    "first day of",  # "my daughter's first day of school": the school, not a day school
    "first day at",
    "last day of",
    "last day at",
    "of the day",  # "outfit of the day", "photo of the day"
    "first day home",  # "the puppy's first day home": the puppy at home, no "day home"
    "first night home",
    "first week home",
    # how it was shot, which no model sees: "macro shots of insects" are insects, "an aerial view of
    # the city" the city, "drone shots of the beach" the beach
    *(
        f"{how} {kind}{plural} of"
        for how in ("macro", "aerial", "drone", "bird's eye", "birds eye")
        for kind in ("shot", "photo", "picture", "view", "image")
        for plural in ("s", "")
    ),
    "macro",
    "wide angle",  # "wide angle shots": how it was shot
    "wide-angle",
    "long exposure of",
    "long exposures of",
    "long exposure shot of",
    "long exposure shots of",
)
#: Phrases that say where one thing is beside or in another, like a separator: "a star on top of the
#: tree" is a star and a tree, not a thing called "top tree"; "a basket full of apples" a basket and apples.
WHERE_PHRASES = (
    "close to",  # "close to the beach": near it, no "close beach"
    "right next to",
    "fresh out of",  # "cookies fresh out of the oven": cookies and an oven, no "cookies fresh"
    "fresh from",
    "on top of",
    "on the top of",
    "at the top of",
    "top of",
    "out of",
    "full of",
    "made of",
    "made from",
    "shaped like a",  # "a cake shaped like a car": a cake and a car, no "cake shaped car"
    "shaped like an",
    "shaped like",
    "in the shape of a",
    "in the shape of an",
    "in the shape of",
    "dressed up as",  # "a kid dressed as a pirate": a kid and a pirate
    "dressed as",
    "as a",  # "the dog as a puppy": the dog and a puppy, no "dog puppy"
    "as an",
    "was still a",  # "when the cat was a kitten": the cat and a kitten, no "cat kitten"
    "was a",
    "was an",
)

#: Words for a relation: they name someone, not a look (resources/scenes.yaml reads them as a hint of
#: the face model's look until someone is named so in People).
RELATION_WORDS = _words("""
mum mom mummy mommy mother wife sister aunt auntie dad daddy father husband brother uncle
grandma granny grandmother nan nana grandpa grandad granddad grandfather grandparent son daughter
""")

#: Words that separate concept phrases (prepositions etc.) but mean AND.
SEPARATORS = _words("""
at in on near by from under over behind beside next inside outside around along across between during
while through into onto toward towards against among above below beneath underneath down nearby beyond alongside
upon within front top bottom while holding
wearing playing eating sitting standing walking running riding lying sleeping
going heading coming looking having growing
after before when for
""") - {"top"}

#: What holds or portions a thing, said before "of" it: "a plate of pasta" is pasta, "a vase of
#: flowers" flowers (the holder is in the photo too, but the thing is what is asked for); so do a
#: way of seeing it no model reads ("a view of the sea" is the sea, "the silhouette of a tree" a
#: tree), a part or side of it ("the edge of the cliff"), what is asked of it ("the name of that restaurant"
#: is its sign) and how many or what kind ("a pair of shoes").
HOLDER_WORDS = _words("""
plate plates cup cups glass glasses bowl bowls mug mugs jar jars bottle bottles can cans carton cartons
box boxes bag bags basket baskets bucket buckets tray trays pot pots jug jugs vase vases bouquet bouquets
slice slices piece pieces scoop scoops pile piles stack stacks heap heaps plateful bowlful spoonful
field fields row rows line lines
view views silhouette silhouettes reflection reflections shadow shadows
side sides edge edges end middle back front corner rest shore shores page pages
name names colour colours color colors
pint pints bar bars handful handfuls
pair pairs set sets collection collections kind kinds type types sort sorts game games
""")
#: What shows a thing, said before "of" it: "a painting of a horse" is a painting and a horse (the
#: tagger may well see the horse in it), not one concept "painting horse".
DEPICTION_WORDS = _words("""
painting paintings drawing drawings sketch sketches statue statues sculpture sculptures model models
map maps poster posters mural murals carving carvings figurine figurines
""")

AND_WORDS = frozenset(
    {"and", "with", "plus", "&", "+", "both", "together", "also", "featuring", "including", "n", "w/"}
    | {"containing", "contains", "depicting", "depicts"}  # "photos containing bicycles"
)
OR_WORDS = frozenset({"or", "either", "/", "vs", "versus"})  # "dog vs cat": photos of either
NOT_PHRASES = (
    "anything but",
    "everything but",
    "but not",
    "and not",
    "other than",
    "away from",  # "photos away from home": not at home
    "apart from",
    "aside from",
    "except for",
    "with no",
    "without any",
    "without",
    "except",
    "excluding",
    "exclude",
    "minus",
    "non",  # "non-blurry photos", "non screenshots"
    "not",
    "no",
    "nor",
    "neither",
    "never",
    "nothing",  # "nothing blurry" ("nothing but dogs" is only dogs: claims.words.NegationClaims)
    "none of",
    "w/o",
    "sans",
    "leave out",
    "leaving out",
    "skip",
    "hide",
    # "cars that aren't red", "photos that don't have people": a verb's "not", with or without the
    # apostrophe (spelling would read "arent" as "agent")
    *(
        f"{verb}{mark}t"
        for verb in ("aren", "isn", "don", "doesn", "didn", "wasn", "weren", "haven", "hasn")
        for mark in ("'", "")
    ),
)
#: Prepositions before a place ("in Rome"); a word after them is not text in the photo either.
PLACE_PREPS = ("in", "at", "near", "around", "from", "to", "visiting", "outside", "across")
ONLY_WORDS = frozenset({"only", "just", "solely", "exclusively"})

#: Concept words that are NOT place names in lower case (GeoNames has towns called "Beach", "Orange"...).
COMMON_WORDS = _words("""
beach home park garden church mountain mountains lake sea ocean river forest wood woods hill hills
desert island city town village street road bridge castle tower house school office station airport
harbor harbour port market museum zoo farm field fields valley canyon cave waterfall snow rain sun
sunset sunrise sky cloud clouds night day morning evening orange rose lily daisy ivy hope eden
chelsea chester dog cat bird horse cow fish car bike bus train boat
plane best top one little big old new red blue green white black yellow pink grey gray brown gold
silver summer winter spring fall autumn may march august june july party wedding birthday dinner
lunch breakfast cake food kitchen bedroom bath pool center centre square bay cliff cliffs coast shore
camp camping hike hiking canal lighthouse palace temple cathedral stadium mall bar cafe restaurant
hotel hospital university college library theater theatre concert festival christmas easter
snowman tree trees flower flowers grass leaf leaves rock rocks stone sand dune dunes ice glacier
volcano trail path mill bell lion bear wolf fox eagle deer sheep goat pig chicken duck swan
baby kid kids child children family friends people person man woman boy girl crowd face faces
selfie selfies portrait portraits group screenshot screenshots document documents receipt
cross point union liberty independence providence concord harmony paradise normal mission
golden marina monument view views light lights dark fire water wind storm fog mist
nice north south east west northeast northwest southeast southwest central
""")

#: Makers of lenses alone (a camera maker's lens names its camera too) → display spelling.
LENS_BRANDS = {
    "sigma": "Sigma",
    "tamron": "Tamron",
    "tokina": "Tokina",
    "samyang": "Samyang",
    "rokinon": "Rokinon",
    "zeiss": "Zeiss",
    "voigtlander": "Voigtländer",
    "voigtländer": "Voigtländer",
    "laowa": "Laowa",
    "viltrox": "Viltrox",
    "meike": "Meike",
    "7artisans": "7Artisans",
    "ttartisan": "TTArtisan",
    "lensbaby": "Lensbaby",
    "irix": "Irix",
}

#: Camera brands and product lines → display spelling.
CAMERA_BRANDS = {
    "iphone": "iPhone",
    "ipad": "iPad",
    "pixel": "Pixel",
    "galaxy": "Galaxy",
    "samsung": "Samsung",
    "canon": "Canon",
    "nikon": "Nikon",
    "sony": "Sony",
    "fujifilm": "Fujifilm",
    "fuji": "Fujifilm",
    "olympus": "Olympus",
    "panasonic": "Panasonic",
    "lumix": "Lumix",
    "leica": "Leica",
    "gopro": "GoPro",
    "dji": "DJI",
    "huawei": "Huawei",
    "xiaomi": "Xiaomi",
    "oneplus": "OnePlus",
    "motorola": "Motorola",
    "nokia": "Nokia",
    "kodak": "Kodak",
    "pentax": "Pentax",
    "ricoh": "Ricoh",
    "hasselblad": "Hasselblad",
    "oppo": "OPPO",
    "insta360": "Insta360",
    "apple": "Apple",
    "google": "Google",
}
CAMERA_MODEL_WORDS = frozenset(
    {
        "pro",
        "max",
        "plus",
        "mini",
        "ultra",
        "xl",
        "a",
        "eos",
        "mark",
        "ii",
        "iii",
        "iv",
        "se",
        "lite",
        "fold",
        "flip",
        "hero",
        "note",
        "mavic",
        "air",
        "alpha",
        "zv",
        "rebel",
    }
)
CAMERA_INTRO = (
    "taken with",
    "taken on",
    "taken by",
    "shot with",
    "shot on",
    "shot by",
    "captured with",
    "captured on",
    "made with",
    "from",
    "with",
    "on",
    "using",
    "by",
)

KIND_WORDS = {
    "screenshot": "screenshot",
    "screenshots": "screenshot",
    "screen shot": "screenshot",
    "screen shots": "screenshot",
    "screen grab": "screenshot",
    "screengrab": "screenshot",
    "screengrabs": "screenshot",
    "screen grabs": "screenshot",
    "screen captures": "screenshot",
    "document": "document",
    "documents": "document",
    "scans": "document",
    "scan of": "document",  # "a scan of my birth certificate": the certificate, scanned
    "scans of": "document",
    "a scan of": "document",
    "scanned copy of": "document",
    "photocopy of": "document",
    "a photocopy of": "document",
    "scanned documents": "document",
    "scanned document": "document",
    "paperwork": "document",
    "docs": "document",
    "real photos": "photo",
    "actual photos": "photo",
    "real pictures": "photo",
    "camera photos": "photo",
    "proper photos": "photo",
    "photographs": "photo",
}
#: Papers people photograph to keep ("receipts", "the boarding pass", "handwritten notes"): no photo
#: model labels them, the page classifier sees a document. The last word or two of a thing's name;
#: a menu, an envelope or a notebook is left out, since the tagger labels it.
DOCUMENT_THINGS = _words("""
receipt invoice payslip contract certificate diploma prescription ticket passport letter note recipe
newspaper flyer leaflet brochure pamphlet homework worksheet manual page licence license warranty
paperwork
""") | frozenset(
    {
        "boarding pass",
        "business card",
        "report card",
        "bank statement",
        "tax return",
        "tax form",
        "id card",
        "identity card",
        "vaccination card",
        "vaccine card",
        "insurance card",
        "membership card",
        "pay slip",
        "sheet music",
        "shopping list",
        "to-do list",
        "todo list",
    }
)
#: Names that end like a paper but are none ("a musical note").
NOT_DOCUMENTS = frozenset({"musical note", "music note", "bank note", "high note", "grace note"})
QUALITY_WORDS = {
    "blurry": "blurry",
    "blurred": "blurry",
    "blurry ones": "blurry",
    "out of focus": "blurry",
    "out-of-focus": "blurry",
    "unsharp": "blurry",
    "fuzzy": "blurry",
    "shaky": "blurry",
    "blur": "blurry",
    "motion blur": "blurry",  # no concept "motion"
    "motion blurred": "blurry",
    "camera shake": "blurry",
    "sharp": "sharp",
    "in focus": "sharp",
    "in-focus": "sharp",
    "crisp": "sharp",
    "focused": "sharp",
    "sharp ones": "sharp",
    "sharpest": "sharp",  # "the sharpest photo of anna": a sharp one, the best match first
    "clearest": "sharp",
    "crispest": "sharp",
    "most in focus": "sharp",
    "blurriest": "blurry",
    # the one measure of a photo's quality the models take is its sharpness
    "good quality": "sharp",
    "high quality": "sharp",
    "low quality": "blurry",
    # bad photos: the one measure of a bad photo here is that it is not sharp
    **{
        f"{bad} {what}": "blurry"
        for bad in ("bad", "worst", "terrible", "awful", "failed")
        for what in ("photos", "pictures", "shots", "ones")
    },
    "poor quality": "blurry",
    "bad quality": "blurry",
}
FAVOURITE_WORDS = (
    "favourites",
    "favorites",
    "favourite",
    "favorite",
    "faves",
    "fave",
    "starred",
    "hearted",
    "liked",
    "loved ones",
    "i love",
    "i like",
    "we love",
    "i loved",
    "i liked",
)

#: Colour labels as photo tools write them into xmp:Label (Lightroom, Bridge, digiKam, darktable).
COLOR_LABEL_WORDS = {
    "red": "Red",
    "orange": "Orange",
    "yellow": "Yellow",
    "green": "Green",
    "blue": "Blue",
    "purple": "Purple",
    "magenta": "Magenta",
    "gray": "Gray",
    "grey": "Gray",
    "white": "White",
    "black": "Black",
}
#: Words that say "star rating" after a number ("4 stars", "five-star").
STAR_WORDS = r"(?:stars?|-stars?|\s+stars?)"

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
    "a dozen": 12,
    "dozen": 12,
}
NUMBER_RE = r"\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
#: Words that say how many, not what: a concept's other words name the thing ("two jaguars",
#: "a herd of horses", "several windmills").
#: Words the parser keeps before a count's number to bound it: "at least two dogs" is "least two dog",
#: "up to three cats" "most three cat" (`quantities.count_of` reads them).
COUNT_BOUNDS = frozenset({"least", "most"})
QUANTITY_WORDS = frozenset(
    {w for w in NUMBER_WORDS if " " not in w}
    | {"several", "few", "many", "lots", "lot", "some", "multiple", "numerous", "various", "pair", "pairs"}
    | {"herd", "herds", "flock", "flocks", "pack", "packs", "swarm", "swarms", "bunch", "bunches"}
    | {"group", "groups", "crowd", "crowds", "couple", "couples", "dozens", "hundreds", "plenty"}
    | COUNT_BOUNDS
)


def to_int(text: str) -> int:
    text = text.strip().lower()
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


IRREGULAR_PLURALS = {
    "people": "people",
    "children": "child",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "geese": "goose",
    "feet": "foot",
    "teeth": "tooth",
    "leaves": "leaf",
    "knives": "knife",
    "wolves": "wolf",
    "shelves": "shelf",
    "loaves": "loaf",
    "calves": "calf",
    "halves": "half",
    "sheep": "sheep",
    "fish": "fish",
    "deer": "deer",
    "buses": "bus",
    "glasses": "glasses",
    "sunglasses": "sunglasses",
    "jeans": "jeans",
    "clothes": "clothes",
    "fireworks": "fireworks",
    "pants": "pants",
    "shorts": "shorts",
    "scissors": "scissors",
    "headphones": "headphones",
    "news": "news",
    "series": "series",
    "species": "species",
    "christmas": "christmas",
    "lens": "lens",
    "bus": "bus",
    "gas": "gas",
    "glass": "glass",
    "grass": "grass",
    "dress": "dress",
    "cactus": "cactus",
    "octopus": "octopus",
    "status": "status",
    "canvas": "canvas",
    "alps": "alps",
    "goggles": "goggles",
    "stairs": "stairs",
    "lego": "lego",
    "legos": "lego",
    "dice": "dice",
    "oasis": "oasis",
    "tennis": "tennis",
    "chess": "chess",
    "physics": "physics",
    "mathematics": "mathematics",
    "boots": "boot",
    "cookies": "cookie",
    "movies": "movie",
    "selfies": "selfie",
    "ties": "tie",
    "pies": "pie",
    "lies": "lie",
    "horses": "horse",
    "houses": "house",
    "roses": "rose",
    "cheeses": "cheese",
    "vases": "vase",
    "bases": "base",
    "cases": "case",
    "phases": "phase",
    "nurses": "nurse",
    "purses": "purse",
    "courses": "course",
    "vegetables": "vegetable",
    "tomatoes": "tomato",
    "potatoes": "potato",
    "heroes": "hero",
    "volcanoes": "volcano",
    "mangoes": "mango",
    # makes of car (resources/scenes.yaml) whose plural no rule above undoes
    "mercedes": "mercedes",
    "porsches": "porsche",
    "ferraris": "ferrari",
    "lamborghinis": "lamborghini",
    "maseratis": "maserati",
    "bugattis": "bugatti",
    "audis": "audi",
}
_ES_END = re.compile(r"(?:ches|shes|xes|sses|zzes)$")


def singular(word: str) -> str:
    """A plain English singular for a concept's head word ("puppies" → "puppy", "boxes" → "box")."""
    w = word.lower()
    if w in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[w]
    if len(w) <= 3 or not w.isalpha():
        return word
    if w.endswith("ies") and len(w) > 4:
        return word[:-3] + "y"
    if _ES_END.search(w):
        return word[:-2]
    if w.endswith(("ss", "us", "is", "ous", "ics")):
        return word
    if w.endswith("s"):
        return word[:-1]
    return word


#: Words a photo is measured or named by whose superlative people type: "the darkest photos", "the
#: greenest", "the sunniest day" ask for the dark, green and sunny ones (colours: `senses.COLOUR_WORDS`).
SUPERLATIVE_BASES = frozenset({"dark", "bright", "sunny", "snowy", "foggy", "misty", "cloudy", "rainy"})
SUPERLATIVE_BASES |= frozenset({"stormy", "hazy", "colourful", "colorful"})
_SUPERLATIVE = re.compile(r"\b[a-z]+(?:est|st)\b", re.IGNORECASE)


def superlatives_written_out(text: str) -> str:
    """The request with a superlative of a measured word written as the word: "the darkest photos" →
    "the dark photos", "reddest" → "red", "sunniest" → "sunny"; other words ending in -est stay
    ("forest", "best", "honest")."""
    from photosearch.query.senses import COLOUR_WORDS

    bases = SUPERLATIVE_BASES | COLOUR_WORDS.keys()

    def plain(m: re.Match) -> str:
        word = m.group(0).lower()
        stem = word[: -len("iest")] + "y" if word.endswith("iest") else None
        for base in (stem, word[:-3], word[:-2], word[:-4] if word[-4:-3] == word[-5:-4] else None):
            if base and base in bases:
                return base
        return m.group(0)

    return _SUPERLATIVE.sub(plain, text)
