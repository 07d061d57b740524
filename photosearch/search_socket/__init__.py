"""A running `photosearch watch` or app answers searches over a Unix-domain socket in the data folder.

`server.SearchServer` serves its process's `Core`; `client.served_search` asks it first (the CLI's
`photosearch search`), and any failure means the caller searches in its own process: the same answer,
only slower. `protocol` holds the socket's place, the message framing and the version. Only the owner
can reach the socket (a 0700 folder, a 0600 socket), and each side checks the other's uid
(SO_PEERCRED); elsewhere than Linux nothing is served.
"""
