"""Policy: the guarantees around approval, whatever the policy plugins return.

Kernel. Project trust, remembered grants, the invariants applied after every approval policy,
and the environment variables no tool may set. The default policy itself is a plugin,
:mod:`tooldrop.approval`.
"""
