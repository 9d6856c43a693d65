"""DoneCheck's actors as plain classes; ``deploy.py`` makes them Ray actors.

==========================  ============================================
:mod:`.ledger`              evidence ledger (sharded by session)
:mod:`.controller`          completion controller (sharded by session)
:mod:`.reviewer`            reviewer pool (rules-only by default)
:mod:`.budget`              budget accountant (sharded by session)
:mod:`.parser`              attachment parser pool
:mod:`.loop`, :mod:`.rules`  the pure decisions they make
==========================  ============================================
"""
