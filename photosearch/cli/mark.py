"""`photosearch mark PHOTO`: tag, rate and caption a photo by hand (and write its sidecar when on)."""

from __future__ import annotations

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser(
        "mark",
        help="tag, rate or caption a photo by hand; with sidecar_writeback on, it goes into its XMP sidecar",
    )
    p.add_argument("photo", help="the photo's id or path")
    p.add_argument("--tag", action="append", default=[], metavar="TAG", help="add a tag (repeatable)")
    p.add_argument("--untag", action="append", default=[], metavar="TAG", help="remove a tag you added")
    p.add_argument("--rating", type=int, metavar="STARS", help="0..5 stars, -1 for rejected")
    p.add_argument("--no-rating", action="store_true", help="remove the rating you gave")
    p.add_argument("--caption", metavar="TEXT", help='your caption ("" removes it)')
    p.set_defaults(func=cmd_mark)


def cmd_mark(ctx, args) -> int:
    from photosearch.catalog.user_marks import mark
    from photosearch.metadata.sync import sync_sidecars

    ref = args.photo
    photo = None if ref.isdigit() else ctx.store.photo_by_path(ref)
    if not ref.isdigit() and photo is None:
        raise PhotoSearchError(f"{ref} is not in the catalog; add its folder and run `photosearch index`")
    pid = int(ref) if ref.isdigit() else photo.id
    marks = mark(
        ctx.store,
        pid,
        add_tags=args.tag,
        remove_tags=args.untag,
        rating=args.rating,
        clear_rating=args.no_rating,
        caption=args.caption,
    )
    sidecars = sync_sidecars(ctx.store, ctx.settings, [pid])
    data = {"photo": pid, **marks.as_dict(), "sidecars": sidecars.as_dict()}

    def text(_d) -> str:
        stars = "none" if marks.rating is None else ("rejected" if marks.rating < 0 else f"{marks.rating}")
        lines = [
            f"photo #{pid}: tags {', '.join(marks.tags) or 'none'}; rating {stars}; caption {marks.caption or 'none'}"
        ]
        if sidecars.enabled:
            lines.append(
                f"sidecar written {sidecars.written}, up to date {sidecars.unchanged}"
                + "".join(f"\n  failed: {f}" for f in sidecars.failed)
            )
        return "\n".join(lines)

    ctx.emit(data, text)
    return 1 if sidecars.failed else 0
