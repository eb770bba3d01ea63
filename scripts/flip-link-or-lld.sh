#!/usr/bin/env bash
# The linker for the board image (firmware/.cargo/config.toml): flip-link when installed — the
# knurling tool that puts the stack below the statics so that a stack overflow hard-faults instead
# of corrupting them — and rust-lld (what the target uses by default) otherwise, so that machines
# that only build need nothing extra. rustc puts its own rust-lld on PATH for the linker. Which one
# linked an image shows in it: with flip-link, `_stack_start` equals `__sdata` (the statics sit at
# the top of RAM and the stack grows down from below them); without, `_stack_start` is the end of RAM.
if command -v flip-link >/dev/null 2>&1; then
    exec flip-link "$@"
fi
exec rust-lld "$@" # rustc passes `-flavor gnu` itself
