"""RunOptions: one object for a run's choices, built by the CLI and accepted by the API."""

import argparse
import inspect
from dataclasses import fields

import pytest

from sentinel import api, cli
from sentinel.core.errors import SentinelError
from sentinel.run.options import RunOptions, add_run_options, from_args, option_fields


def run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_run_options(parser)
    return parser


def test_every_option_of_sentinel_run_is_a_field_of_run_options():
    run = cli.build_parser()._subparsers._group_actions[0].choices["run"]
    dests = {a.dest for a in run._actions} - {"help", "ci", "fail_under", "func"}
    assert dests == {f.name for f in option_fields()}


def test_the_cli_builds_the_object_the_api_accepts():
    args = run_parser().parse_args(["--agent", "oracle", "--env", "micromail,microhood", "--env", "microhub",
                                    "--task", "sender_arrives", "--speed", "50", "--trials", "3", "--backend",
                                    "local", "--session-memory", "512", "--resume"])
    options = from_args(args)
    assert options == RunOptions(agent="oracle", envs=("micromail,microhood", "microhub"), tasks=("sender_arrives",),
                                 speed=50.0, trials=3, backend="local", session_memory_mb=512.0, resume=True)
    hash(options)  # frozen all the way down: lists became tuples


def test_defaults_of_the_cli_are_the_defaults_of_the_object():
    assert from_args(run_parser().parse_args([])) == RunOptions()


def test_agent_and_cmd_exclude_each_other_on_the_command_line(capsys):
    with pytest.raises(SystemExit):
        run_parser().parse_args(["--agent", "oracle", "--cmd", "true"])


@pytest.mark.parametrize("entry", [api.run, api.run_async, api.prepare_run])
def test_the_api_takes_the_object_or_its_fields_as_keywords(entry):
    params = inspect.signature(entry).parameters
    assert next(iter(params)) == "options" and any(p.kind is p.VAR_KEYWORD for p in params.values())


def test_keywords_change_the_object_and_unknown_ones_are_refused():
    config, plan = api.prepare_run(RunOptions(agent="eager", speed=50), tasks=["sender_arrives"], trials=2)
    assert (plan.agent, plan.speed, plan.trials, [s.short_id for s in plan.scenarios]) == \
        ("eager", 50.0, 2, ["sender_arrives"])
    with pytest.raises(TypeError):
        api.prepare_run(agent="eager", colour="blue")


def test_the_backend_is_reachable_from_the_api():
    with pytest.raises(SentinelError, match="--address, --session-cpus and --session-memory go with --backend ray"):
        api.prepare_run(agent="eager", backend="local", session_cpus=1)


def test_every_field_but_the_scenario_objects_is_a_command_line_option():
    assert {f.name for f in fields(RunOptions)} - {f.name for f in option_fields()} == {"scenarios", "person"}


def test_a_person_plays_given_scenarios_without_an_agent_process():
    scenario = api.prepare_run(agent="eager", tasks=["sender_arrives"])[1].scenarios[0]
    _, plan = api.prepare_run(RunOptions(person=True, scenarios=(scenario,)))
    assert (plan.agent, plan.command, plan.scenarios, plan.name.startswith("human-")) == \
        ("human", None, (scenario,), True)
    with pytest.raises(SentinelError, match="--agent human: unknown"):
        api.prepare_run(agent="human")
