"""The call pipeline: validate → defaults → render → approve → (ask) → execute → after_call.

Kernel. A call becomes a :class:`~tooldrop.PendingCall` (validated, rendered, judged), then runs
on the backend that claims its runner, bounded by its timeout and its cancel token; the output
is cut to what the model may see. Everything public is re-exported by :mod:`tooldrop`.
"""
