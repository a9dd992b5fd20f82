"""The per-function cache: what one compile produced (`entry`), and what changed between compiles
that makes a recompile mark an input dynamic (`dynamic`). The choice among entries on each call
is guards/dispatch.py."""
