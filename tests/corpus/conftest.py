# The vendored modules are corpus material, not tests of this project.
collect_ignore_glob = ["vendor/*"]
