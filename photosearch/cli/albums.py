"""`photosearch album …` (manual and smart albums) and `photosearch export` (copy photos out)."""

from __future__ import annotations

import sys

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser("album", help="albums: your own sets of photos, or saved searches that stay current")
    a = p.add_subparsers(dest="album_command", metavar="ACTION", required=True)
    c = a.add_parser("list", help="every album with its number of photos")
    c.set_defaults(func=cmd_list)
    c = a.add_parser("create", help="a new album you fill by hand (album add)")
    c.add_argument("name")
    c.set_defaults(func=cmd_create)
    c = a.add_parser("save-search", help="a smart album: the search is run again whenever the album is shown")
    c.add_argument("name")
    c.add_argument("request", help='what to find, e.g. "dogs at the beach"')
    c.add_argument("--replace", action="store_true", help="give an existing smart album this search")
    c.add_argument("--now", help="today's date for relative dates (YYYY-MM-DD)")
    c.set_defaults(func=cmd_save_search)
    for name, what in (("add", "put photos in"), ("remove", "take photos out of")):
        c = a.add_parser(name, help=f"{what} an album you fill by hand (the photos stay in the library)")
        c.add_argument("name")
        c.add_argument("photos", nargs="+", metavar="PHOTO", help="photo ids or paths")
        c.set_defaults(func=cmd_add if name == "add" else cmd_remove)
    c = a.add_parser("show", help="the album's photos (a smart album: what its search finds now)")
    c.add_argument("name")
    c.set_defaults(func=cmd_show)
    c = a.add_parser("rename", help="give an album a new name")
    c.add_argument("name")
    c.add_argument("new_name")
    c.set_defaults(func=cmd_rename)
    c = a.add_parser("delete", help="delete an album (never its photos)")
    c.add_argument("name")
    c.set_defaults(func=cmd_delete)

    e = sub.add_parser("export", help="copy the original files of photos (and their sidecars) into a folder")
    e.add_argument("request", nargs="*", help="the photos a search finds, e.g. my favourites from 2019")
    e.add_argument("--to", required=True, metavar="DIR", help="the folder to copy into (made when missing)")
    e.add_argument("--album", metavar="NAME", help="the photos of this album instead of a search")
    e.add_argument("--now", help="today's date for relative dates (YYYY-MM-DD)")
    e.set_defaults(func=cmd_export)


def _photo_ids(ctx, refs: list[str]) -> list[int]:
    ids = []
    for ref in refs:
        if ref.isdigit():
            ids.append(int(ref))
            continue
        photo = ctx.store.photo_by_path(ref)
        if photo is None:
            raise PhotoSearchError(f"{ref} is not in the catalog; add its folder and run `photosearch index`")
        ids.append(photo.id)
    return ids


def _album_line(a: dict) -> str:
    count = "?" if a.get("count") is None else f"{a['count']:,}"
    kind = f"smart: {a['request'] or 'saved search'}" if a["kind"] == "smart" else "manual"
    line = f"{a['name']}  ({count} photo{'' if a.get('count') == 1 else 's'}; {kind})"
    return line + (f"  — cannot run: {a['problem']}" if a.get("problem") else "")


def cmd_list(ctx, args) -> int:
    data = ctx.core.organize.albums()
    ctx.emit(
        data,
        lambda d: "\n".join(_album_line(a) for a in d) or "no albums yet (photosearch album create NAME)",
    )
    return 0


def cmd_create(ctx, args) -> int:
    data = ctx.core.organize.create_album(args.name)
    ctx.emit(data, f"created the album {data['name']!r} (photosearch album add {data['name']!r} PHOTO…)")
    return 0


def _now(value: str | None):
    from datetime import date

    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PhotoSearchError(f"--now {value!r} is not a date YYYY-MM-DD") from None


def cmd_save_search(ctx, args) -> int:
    from photosearch.query.plan import plan_to_text
    from photosearch.query.search import plan_for

    if not args.request.strip():
        raise PhotoSearchError(
            "a smart album needs a search, e.g. album save-search Dogs 'dogs at the beach'"
        )
    plan, _info = plan_for(args.request, ctx.store, ctx.settings, _now(args.now))
    data = ctx.core.organize.save_search(args.name, plan, args.request, replace=args.replace)
    count = len(ctx.core.organize.photo_ids(data["name"]))
    data["count"] = count
    ctx.emit(
        data,
        f"saved the search as {data['name']!r}: {plan_to_text(data['plan'])} ({count:,} photo{'s' if count != 1 else ''} now)",
    )
    return 0


def cmd_add(ctx, args) -> int:
    added = ctx.core.organize.add_to_album(args.name, _photo_ids(ctx, args.photos))
    data = {"album": args.name, "added": added}
    ctx.emit(data, f"added {added} photo{'s' if added != 1 else ''} to {args.name!r}")
    return 0


def cmd_remove(ctx, args) -> int:
    removed = ctx.core.organize.remove_from_album(args.name, _photo_ids(ctx, args.photos))
    data = {"album": args.name, "removed": removed}
    ctx.emit(data, f"took {removed} photo{'s' if removed != 1 else ''} out of {args.name!r}")
    return 0


def cmd_show(ctx, args) -> int:
    result = ctx.core.organize.album_results(args.name, explain=False)
    album = result["album"]
    data = {"album": album, "photos": [{"id": r["id"], "path": r["path"]} for r in result["results"]]}

    def text(d) -> str:
        head = _album_line({**album, "count": len(d["photos"])})
        return "\n".join([head, *(f"{p['id']:>7}  {p['path']}" for p in d["photos"])])

    ctx.emit(data, text)
    return 0


def cmd_rename(ctx, args) -> int:
    data = ctx.core.organize.rename_album(args.name, args.new_name)
    ctx.emit(data, f"renamed {args.name!r} to {data['name']!r}")
    return 0


def cmd_delete(ctx, args) -> int:
    data = ctx.core.organize.delete_album(args.name)
    ctx.emit(data, f"deleted the album {data['name']!r} (its photos stay in the library)")
    return 0


def cmd_export(ctx, args) -> int:
    from tqdm import tqdm

    from photosearch.cli.progress import CancelOnInterrupt

    request = " ".join(args.request).strip()
    if bool(request) == bool(args.album):
        raise PhotoSearchError("say which photos: a search (export --to DIR dogs) or --album NAME, not both")
    if args.album:
        ids = ctx.core.organize.photo_ids(args.album)
    else:
        found = ctx.core.search(request=request, limit=None, explain=False, now=_now(args.now))
        ids = [int(r["id"]) for r in found["results"] if not r.get("below_cutoff")]
    if not ids:
        raise PhotoSearchError("no photos to copy: the search found none (nothing was copied)")
    tty = sys.stderr.isatty() and not ctx.json_output
    with (
        tqdm(total=len(ids), unit="photo", disable=not tty, file=sys.stderr) as bar,
        CancelOnInterrupt() as cancel,
    ):

        def progress(p) -> None:
            bar.n = p.done
            bar.refresh()

        report = ctx.core.organize.export(ids, args.to, progress=progress, cancel=cancel)
    ctx.emit(report.as_dict(), report.summary())
    return 1 if report.skipped or report.cancelled else 0
