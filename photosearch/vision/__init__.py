"""Model runtime and analyzers.

onnxruntime is imported before any analyzer loads another native runtime (TFLite, OpenCV, dlib,
usearch): importing it after usearch segfaults (see vectors/index.py), and this keeps the order
`import photosearch` used to fix, without making the command line's start-up pay for it."""

import onnxruntime  # noqa: F401
