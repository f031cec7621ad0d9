#!/bin/sh
exec "$ZCB_SRCDIR/tests/fuzz/run.sh" soakproto
