"""People commands: list, show, name, merge, split, move, hide, unhide, birthday, cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from photosearch import people as P


def register(sub) -> None:
    root = sub.add_parser("people", help="faces grouped into people: list, name, merge, split, hide")
    cmds = root.add_subparsers(dest="people_command", metavar="ACTION")
    root.set_defaults(func=lambda ctx, args: (root.print_help(), 2)[1])

    p = cmds.add_parser("list", help="people with face and photo counts, most faces first")
    p.add_argument("--all", action="store_true", help="include hidden people")
    p.add_argument("--named", action="store_true", help="only people with a name")
    p.add_argument(
        "--min-faces", type=int, default=1, help="hide unnamed clusters with fewer faces (default 1)"
    )
    p.set_defaults(func=cmd_list)

    p = cmds.add_parser("show", help="one person's faces (ids for split/move)")
    p.add_argument("person", help="person id or name")
    p.set_defaults(func=cmd_show)

    p = cmds.add_parser("name", help="name a person (a cluster); an existing name merges into that person")
    p.add_argument("person", help="person id (or current name)")
    p.add_argument("name", help='the name, e.g. "Anna"; "" removes the name')
    p.add_argument(
        "--no-merge", action="store_true", help="keep apart from another person with the same name"
    )
    p.set_defaults(func=cmd_name)

    p = cmds.add_parser("merge", help="merge OTHER into KEEP (same person)")
    p.add_argument("keep", help="person id or name that stays")
    p.add_argument("other", help="person id or name that is merged and removed")
    p.set_defaults(func=cmd_merge)

    p = cmds.add_parser("split", help="move faces to a new person (they stay there on re-clustering)")
    p.add_argument("faces", nargs="+", type=int, help="face ids (see `people show`)")
    p.add_argument("--name", help="name for the new person")
    p.set_defaults(func=cmd_split)

    p = cmds.add_parser("move", help="move faces to an existing person (they stay there)")
    p.add_argument("person", help="target person id or name")
    p.add_argument("faces", nargs="+", type=int, help="face ids")
    p.set_defaults(func=cmd_move)

    for action, hidden in (("hide", True), ("unhide", False)):
        p = cmds.add_parser(
            action, help=("hide a person from lists" if hidden else "show a hidden person again")
        )
        p.add_argument("person", help="person id or name")
        p.set_defaults(func=cmd_hide, hidden=hidden)

    p = cmds.add_parser("birthday", help="set a person's birthday (YYYY-MM-DD) or --clear it")
    p.add_argument("person", help="person id or name")
    p.add_argument("date", nargs="?", help="YYYY-MM-DD")
    p.add_argument("--clear", action="store_true")
    p.set_defaults(func=cmd_birthday)

    p = cmds.add_parser("me", help='say which person you are ("me" and "my" in requests); --clear: nobody')
    p.add_argument("person", nargs="?", help="person id or name (none: show who it is)")
    p.add_argument("--clear", action="store_true")
    p.set_defaults(func=cmd_me)

    p = cmds.add_parser("cluster", help="group faces without a person (runs after `index` anyway)")
    p.add_argument(
        "--recluster", action="store_true", help="start over for unnamed people (pinned faces stay)"
    )
    p.add_argument(
        "--threshold", type=float, help="max descriptor distance (default: people.ASSIGN_THRESHOLD)"
    )
    p.set_defaults(func=cmd_cluster)


def _label(p: P.PersonSummary | dict) -> str:
    d = p if isinstance(p, dict) else p.as_dict()
    from photosearch.people.looks import with_article  # the CLI starts without numpy

    look = f", {with_article(d['look'])}" if d.get("look") else ""
    return f"#{d['id']} {d['name'] or f'(unnamed{look})'}"


def cmd_list(ctx, args) -> int:
    from photosearch import people as P

    people = P.list_people(
        ctx.store, include_hidden=args.all, min_faces=args.min_faces, named_only=args.named
    )
    data = {"people": [p.as_dict() for p in people]}

    def text(d: dict) -> str:
        if not d["people"]:
            return "no people yet (index photos with faces, then `photosearch people cluster`)"
        lines = []
        for p in d["people"]:
            extra = " [hidden]" if p["hidden"] else ""
            extra += f" born {p['birthday']}" if p["birthday"] else ""
            lines.append(
                f"{_label(p):<32} {p['face_count']:>5} faces {p['photo_count']:>5} photos  "
                f"face {p['face_id']}{extra}"
            )
        return "\n".join(lines)

    ctx.emit(data, text)
    return 0


def cmd_show(ctx, args) -> int:
    from photosearch import people as P

    pid = P.resolve_person(ctx.store, args.person)
    person = P.get_person(ctx.store, pid)
    faces = P.person_faces(ctx.store, pid)
    data = {"person": person.as_dict(), "faces": [f.as_dict() for f in faces]}
    ctx.emit(
        data,
        lambda d: "\n".join(
            [f"{_label(d['person'])}: {len(d['faces'])} faces"]
            + [
                f"  face {f['id']:>6}{' (pinned)' if f['pinned'] else ''}  {f['photo_path']}"
                for f in d["faces"]
            ]
        ),
    )
    return 0


def cmd_name(ctx, args) -> int:
    from photosearch import people as P

    pid = P.resolve_person(ctx.store, args.person)
    old = P.get_person(ctx.store, pid).name
    result = P.name_person(ctx.store, pid, args.name, merge=not args.no_merge)
    ctx.core.owner_renamed(old, result.name)  # "me" stays on the same person
    data = result.as_dict()

    def text(d: dict) -> str:
        if d["merged"]:
            return f"{d['name']} is #{d['person_id']}: merged #{', #'.join(map(str, d['merged']))} into it"
        line = f"#{d['person_id']} is now {d['name']}" if d["name"] else f"#{d['person_id']} has no name now"
        if d["same_name"]:
            line += f" (also called that: #{', #'.join(map(str, d['same_name']))}; `people merge` joins them)"
        return line

    ctx.emit(data, text)
    return 0


def cmd_merge(ctx, args) -> int:
    from photosearch import people as P

    keep = P.resolve_person(ctx.store, args.keep)
    other = P.resolve_person(ctx.store, args.other)
    moved = P.merge_people(ctx.store, keep, other)
    ctx.emit(
        {"person_id": keep, "merged": other, "faces_moved": moved},
        f"merged #{other} into #{keep} ({moved} faces moved)",
    )
    return 0


def cmd_split(ctx, args) -> int:
    from photosearch import people as P

    pid = P.split_faces(ctx.store, args.faces, name=args.name)
    ctx.emit(
        {"person_id": pid, "faces": sorted(set(args.faces))},
        f"moved {len(set(args.faces))} faces to new person #{pid}",
    )
    return 0


def cmd_move(ctx, args) -> int:
    from photosearch import people as P

    pid = P.resolve_person(ctx.store, args.person)
    n = P.move_faces(ctx.store, args.faces, pid)
    ctx.emit({"person_id": pid, "faces_moved": n}, f"moved {n} faces to #{pid}")
    return 0


def cmd_hide(ctx, args) -> int:
    from photosearch import people as P

    pid = P.resolve_person(ctx.store, args.person)
    P.set_hidden(ctx.store, pid, args.hidden)
    ctx.emit({"person_id": pid, "hidden": args.hidden}, f"#{pid} {'hidden' if args.hidden else 'shown'}")
    return 0


def cmd_birthday(ctx, args) -> int:
    from photosearch import people as P

    if not args.clear and not args.date:
        raise P.PeopleError("give a date like 1990-05-17, or --clear")
    pid = P.resolve_person(ctx.store, args.person)
    value = P.set_birthday(ctx.store, pid, None if args.clear else args.date)
    ctx.emit({"person_id": pid, "birthday": value}, f"#{pid} birthday: {value or 'cleared'}")
    return 0


def cmd_me(ctx, args) -> int:
    from photosearch import people as P

    if args.person and not args.clear:
        person = P.get_person(ctx.store, P.resolve_person(ctx.store, args.person))
        if not person.name:
            raise P.PeopleError(f"#{person.id} has no name; name the person first (`people name`)")
        ctx.core.set_owner(person.name)
    elif args.clear:
        ctx.core.set_owner(None)
    owner = ctx.core.owner
    ctx.emit({"owner": owner}, f"you are {owner}" if owner else "nobody is you yet (`people me NAME`)")
    return 0


def cmd_cluster(ctx, args) -> int:
    from photosearch import people as P

    threshold = P.ASSIGN_THRESHOLD if args.threshold is None else args.threshold
    report = P.cluster_faces(ctx.store, recluster=args.recluster, assign_threshold=threshold)
    data = report.as_dict()
    ctx.emit(
        data,
        lambda d: (
            f"{d['considered']} faces: {d['assigned']} joined people, {d['clustered']} in "
            f"{d['new_people']} new people, {d['unassigned']} left alone"
        ),
    )
    return 0
