"""People: faces clustered into persons that the user names, merges, splits and hides.

The indexer calls `cluster_faces(store)` after analysis; the CLI and GUI call the operations.
"""

from photosearch.people.clustering import (
    ASSIGN_THRESHOLD,
    CLUSTER_THRESHOLD,
    ClusterReport,
    cluster_faces,
)
from photosearch.people.operations import (
    FaceInfo,
    NameResult,
    PeopleError,
    PersonSummary,
    get_person,
    list_people,
    merge_people,
    move_faces,
    name_person,
    people_counts,
    person_faces,
    person_ids_by_name,
    resolve_person,
    set_birthday,
    set_hidden,
    split_faces,
)

__all__ = [
    "ASSIGN_THRESHOLD",
    "CLUSTER_THRESHOLD",
    "ClusterReport",
    "FaceInfo",
    "NameResult",
    "PeopleError",
    "PersonSummary",
    "cluster_faces",
    "get_person",
    "list_people",
    "merge_people",
    "move_faces",
    "name_person",
    "people_counts",
    "person_faces",
    "person_ids_by_name",
    "resolve_person",
    "set_birthday",
    "set_hidden",
    "split_faces",
]
