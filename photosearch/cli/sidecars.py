"""`photosearch sidecars`: write names, tags, ratings and captions into XMP sidecars now."""

from __future__ import annotations

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser(
        "sidecars",
        help="write what you did here (people's names, tags, ratings, captions) into XMP sidecars "
        "beside your photos (never into the photos); needs sidecar_writeback on in settings",
    )
    p.set_defaults(func=cmd_sidecars)


def cmd_sidecars(ctx, args) -> int:
    from photosearch.metadata.sync import sync_sidecars

    if not ctx.settings.sidecar_writeback:
        raise PhotoSearchError(
            'writing XMP sidecars is off; turn it on with "sidecar_writeback": true in settings.json '
            "(or in the app's settings) and run `photosearch sidecars` again"
        )
    report = sync_sidecars(ctx.store, ctx.settings)

    def text(_d) -> str:
        lines = [
            f"sidecars written {report.written}, already up to date {report.unchanged}, failed {len(report.failed)}"
        ]
        lines += [f"  failed: {f}" for f in report.failed]
        return "\n".join(lines)

    ctx.emit(report.as_dict(), text)
    return 1 if report.failed else 0
