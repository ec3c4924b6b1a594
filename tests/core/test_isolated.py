"""Isolated hooks go through pluggy: order, wrappers and each implementation failing alone."""

from __future__ import annotations

import pytest

from tooldrop import hookimpl


class Pack:
    """A tool pack registering one tool ``name``, with the hookimpl options given."""

    def __init__(self, name: str, spec_factory, *, fail: bool = False, **opts: bool) -> None:
        def tooldrop_register_tools(register):
            register(spec_factory(name))
            if fail:
                raise ValueError(f"{name} broke")

        self.tooldrop_register_tools = hookimpl(**opts)(tooldrop_register_tools)


class FailingWrapper:
    @hookimpl(wrapper=True)
    def tooldrop_register_tools(self, register, host):
        yield
        raise RuntimeError("the wrapper broke after the others ran")


def test_tryfirst_and_trylast_order_the_registration_of_tools(make_host, spec_factory):
    host = make_host(
        Pack("last", spec_factory, trylast=True),
        Pack("plain", spec_factory),
        Pack("first", spec_factory, tryfirst=True),
    )
    assert [s.name for s in host.all_tools()] == ["first", "plain", "last"]


def test_a_failing_pack_keeps_its_tools_and_the_others_run(make_host, spec_factory):
    host = make_host(Pack("a", spec_factory), Pack("b", spec_factory, fail=True))
    assert sorted(s.name for s in host.all_tools()) == ["a", "b"]
    [problem] = [p for p in host.problems() if "broke" in p.message]
    assert problem.message == "tooldrop_register_tools failed: ValueError: b broke"
    assert problem.field.startswith("plugin ")


def test_a_failing_wrapper_is_reported_with_its_name(make_host, spec_factory):
    host = make_host(Pack("a", spec_factory))
    host.register(FailingWrapper(), name="failing-wrapper")
    assert [s.name for s in host.all_tools()] == ["a"]
    messages = [(p.field, p.message) for p in host.problems()]
    assert (
        "plugin failing-wrapper",
        "tooldrop_register_tools failed: RuntimeError: the wrapper broke after the others ran",
    ) in messages


def test_an_after_call_observer_failing_is_said_on_stderr(
    make_host, tool_pack, spec_factory, capsys: pytest.CaptureFixture[str]
):
    seen = []

    class Broken:
        @hookimpl(tryfirst=True)
        def tooldrop_after_call(self, call):
            raise OSError("disk full")

    class Fine:
        @hookimpl(trylast=True)
        def tooldrop_after_call(self, call):
            seen.append(call.name)

    host = make_host(tool_pack(spec_factory("echo")), Fine(), Broken())
    assert not host.call("echo", {}).is_error
    assert seen == ["echo"]
    assert "tooldrop_after_call of" in capsys.readouterr().err


def test_a_wrapper_of_a_hook_that_cannot_take_one_is_refused_at_registration(make_host):
    from tooldrop import PluginError

    class Wraps:
        @hookimpl(wrapper=True)
        def tooldrop_wrap_command(self, command):
            return (yield)

    host = make_host()
    with pytest.raises(PluginError, match="tooldrop_wrap_command cannot take hook wrappers"):
        host.register(Wraps())
    assert host.plugin_manager.get_plugins() == {
        p for p in host.plugin_manager.get_plugins() if not isinstance(p, Wraps)
    }


def test_an_old_style_hookwrapper_of_after_call_runs_around_the_observers(
    make_host, tool_pack, spec_factory
):
    order = []

    class OldStyle:
        @hookimpl(hookwrapper=True)
        def tooldrop_after_call(self, call):
            order.append("before")
            outcome = yield
            order.append(f"after {outcome.exception is None}")

    class Observer:
        @hookimpl
        def tooldrop_after_call(self, call):
            order.append("observer")
            raise ValueError("an observer broke")

    host = make_host(tool_pack(spec_factory("echo")), Observer(), OldStyle())
    assert not host.call("echo", {}).is_error
    assert order == ["before", "observer", "after True"]  # the failure stayed with its plugin
