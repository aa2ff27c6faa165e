"""PageTemplates: Jinja's environment for page templates, whose autoescaped templates are rewritten
as they compile (_FastOutput) so that each `{{ … }}` prints through filters.escape_output instead
of building a Markup, and each run of text and values is yielded as one string. Pages stay
byte-identical to Jinja's own (tests/test_render.py); docs/timing.md says what it saves.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import jinja2
from jinja2 import nodes

from sentinel.web.filters import AUTOESCAPE_FREE, escape_output

log = logging.getLogger(__name__)

# The two filters rewritten templates call; no template can name them (not identifiers).
ESCAPE_FILTER = "(escape output)"
JOIN_FILTER = "(join output)"

# Expressions whose value never depends on autoescape being on (only on their operands): no
# calls (a macro returns Markup or text by the caller's autoescape), no `~` (markup_join or
# str_join), and only the filters and tests below. _FastOutput computes any other value with
# autoescape on.
_PLAIN_NODES = (nodes.Name, nodes.NSRef, nodes.Const, nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Tuple,
                nodes.List, nodes.Dict, nodes.Pair, nodes.Keyword, nodes.CondExpr, nodes.And, nodes.Or, nodes.Not,
                nodes.Neg, nodes.Pos, nodes.BinExpr, nodes.Compare, nodes.Operand, nodes.MarkSafe)
# Jinja's own filters and tests that take no eval context (tests/test_render.py renders each
# both ways): allowed while the environment still maps the name to Jinja's own function.
_PLAIN_JINJA_FILTERS = frozenset({"abs", "capitalize", "count", "d", "default", "e", "escape", "filesizeformat",
                                  "first", "float", "format", "int", "last", "length", "list", "lower", "round",
                                  "safe", "string", "title", "trim", "upper", "wordcount"})
_PLAIN_JINJA_TESTS = frozenset({"boolean", "callable", "defined", "divisibleby", "eq", "escaped", "even", "false",
                                "float", "ge", "gt", "in", "integer", "iterable", "le", "lower", "lt", "mapping",
                                "ne", "none", "number", "odd", "sameas", "sequence", "string", "true", "undefined",
                                "upper"})
_JINJA = jinja2.Environment()  # Jinja's own filters and tests, to compare with the environment's


VALUE = "fast_output_value"  # the local a With holds a computed value in while it is printed


class _FastOutput:
    """Rewrites the parsed tree of an autoescaped page template, with public jinja2.nodes only,
    so that its `{{ … }}` print through escape_output instead of markupsafe.escape, and each run
    of text and values between two tags is yielded as one joined string.

    Jinja compiles `{{ value }}` in an autoescaped template to escape(value), which builds a
    Markup per value. Here each stretch of statements that prints values is put between
    `{% autoescape false %}` and `{% autoescape true %}` (EvalContextModifier nodes: Jinja then
    prints str(…)), and each value inside it goes through ESCAPE_FILTER: the same text,
    escaped once, no Markup. Inside a stretch autoescape is off while the template runs too, so
    only plain expressions are evaluated there: names, attributes, items, literals, operators,
    conditions and the filters and tests allowed below, whose value never depends on it. Any
    other value (a call: a macro returns Markup or text by the caller's autoescape; `~`; other
    filters) is computed with autoescape back on, into a `{% with %}` variable printed from
    inside the stretch. Stretches end at statements that are neither printing, ifs, loops,
    sets nor includes of these (macros, blocks, call and filter blocks, …), which are rewritten
    inside in turn. The `{% autoescape true %}` closing each stretch is exact because page
    templates may not switch autoescape themselves (PageTemplates.compile refuses it): outside
    the stretches it is always on."""

    def __init__(self, env: jinja2.Environment, tree: nodes.Template):
        self.filters = {name for name, func in env.filters.items() if any(func is f for f in AUTOESCAPE_FREE)
                        or (name in _PLAIN_JINJA_FILTERS and func is _JINJA.filters.get(name))}
        self.tests = {name for name, func in env.tests.items()
                      if name in _PLAIN_JINJA_TESTS and func is _JINJA.tests.get(name)}
        # In a template that extends another, output outside blocks and macros is only ever
        # computed when there is no parent (Jinja checks at each Output): no `{% with %}` there.
        self.extends = tree.find(nodes.Extends) is not None

    def plain(self, node: nodes.Node) -> bool:
        if isinstance(node, nodes.Filter):
            ok = node.node is not None and node.name in self.filters
        elif isinstance(node, nodes.Test):
            ok = node.name in self.tests
        else:
            ok = isinstance(node, _PLAIN_NODES)
        return ok and all(self.plain(child) for child in node.iter_child_nodes())

    def printed(self, child: nodes.Expr) -> bool:
        """A piece of an Output printed as it is inside a stretch: text or a plain expression."""
        return isinstance(child, nodes.TemplateData) or self.plain(child)

    def printable(self, stmt: nodes.Node) -> bool:
        """A statement that can run inside a stretch as it is (its Outputs rewritten)."""
        if isinstance(stmt, nodes.Output):
            return all(map(self.printed, stmt.nodes))
        if isinstance(stmt, nodes.If):
            return self.plain(stmt.test) and all(map(self.printable, [*stmt.body, *stmt.elif_, *stmt.else_]))
        if isinstance(stmt, nodes.For):
            return (not stmt.recursive and self.plain(stmt.target) and self.plain(stmt.iter)
                    and (stmt.test is None or self.plain(stmt.test))
                    and all(map(self.printable, [*stmt.body, *stmt.else_])))
        if isinstance(stmt, nodes.Assign):
            return self.plain(stmt.target) and self.plain(stmt.node)
        if isinstance(stmt, nodes.Include):  # renders in a context of its own
            return self.plain(stmt.template)
        return False

    def template(self, tree: nodes.Template) -> None:
        tree.body = self.statements(tree.body, guarded=self.extends)

    def statements(self, stmts: list[nodes.Node], guarded: bool) -> list[nodes.Node]:
        """stmts with their stretches rewritten. A stretch is a list of units: ("text", the
        pieces of an Output), ("value", an expression computed with autoescape on), or
        ("stmt", a printable if, loop, set or include)."""
        out: list[nodes.Node] = []
        stretch: list[tuple[str, Any]] = []
        for stmt in stmts:
            if isinstance(stmt, nodes.Output):
                for child in stmt.nodes:
                    if self.printed(child):
                        if stretch and stretch[-1][0] == "text":
                            stretch[-1][1].append(child)
                        else:
                            stretch.append(("text", [child]))
                    elif not guarded:
                        stretch.append(("value", child))
                    else:
                        self.flush(stretch, out)
                        out.append(nodes.Output([child], lineno=child.lineno))
            elif self.printable(stmt):
                stretch.append(("stmt", stmt))
            else:
                self.flush(stretch, out)
                self.descend(stmt, guarded)
                out.append(stmt)
        self.flush(stretch, out)
        return out

    def flush(self, stretch: list[tuple[str, Any]], out: list[nodes.Node]) -> None:
        """The stretch's statements onto out (autoescape off around it, when it prints a value)."""
        units, stretch[:] = list(stretch), []
        if not any(kind == "value" or (kind == "text" and not all(isinstance(c, nodes.TemplateData) for c in unit))
                   or (kind == "stmt" and prints_values(unit)) for kind, unit in units):
            out.extend(nodes.Output(unit, lineno=unit[0].lineno) if kind == "text" else unit for kind, unit in units)
            return
        off = False
        while units:
            kind, unit = units.pop(0)
            lineno = unit[0].lineno if kind == "text" else unit.lineno
            if kind == "value":
                if off:
                    out.append(_autoescape(True, lineno))
                pieces: list[nodes.Expr] = [nodes.Name(VALUE, "load", lineno=lineno)]
                if units and units[0][0] == "text":  # the text after it joins it
                    pieces += units.pop(0)[1]
                out.append(nodes.With([nodes.Name(VALUE, "store", lineno=lineno)], [unit],
                                      [_autoescape(False, lineno), joined(pieces)], lineno=lineno))
            else:
                if not off:
                    out.append(_autoescape(False, lineno))
                out.append(joined(unit) if kind == "text" else escaped(unit))
            off = True
        out.append(_autoescape(True, lineno))

    def descend(self, stmt: nodes.Node, guarded: bool) -> None:
        """The statement lists inside a statement that stays as it is, rewritten."""
        if isinstance(stmt, (nodes.Block, nodes.Macro, nodes.CallBlock, nodes.AssignBlock)):
            guarded = False  # their output is always computed (a set block's too, by Jinja)
        for field in ("body", "else_"):
            children = getattr(stmt, field, None)
            if isinstance(children, list):
                setattr(stmt, field, self.statements(children, guarded))
        for branch in getattr(stmt, "elif_", ()):
            self.descend(branch, guarded)


def joined(pieces: list[nodes.Expr]) -> nodes.Output:
    """An Output inside a stretch: its values escaped by ESCAPE_FILTER, all pieces joined."""
    lineno = pieces[0].lineno
    if all(isinstance(piece, nodes.TemplateData) for piece in pieces):
        return nodes.Output(pieces, lineno=lineno)
    parts: list[nodes.Expr] = [
        nodes.Const(piece.data, lineno=piece.lineno) if isinstance(piece, nodes.TemplateData)
        else nodes.Filter(piece, ESCAPE_FILTER, [], [], None, None, lineno=piece.lineno) for piece in pieces]
    if len(parts) > 1:
        run = nodes.Tuple(parts, "load", lineno=lineno)
        parts = [nodes.Filter(run, JOIN_FILTER, [], [], None, None, lineno=lineno)]
    return nodes.Output(parts, lineno=lineno)


def escaped(stmt: nodes.Node) -> nodes.Node:
    """A printable statement inside a stretch: each Output in it joined."""
    if isinstance(stmt, nodes.Output):
        return joined(stmt.nodes)
    for field in ("body", "elif_", "else_"):
        children = getattr(stmt, field, None)
        if isinstance(children, list):
            setattr(stmt, field, [escaped(child) for child in children])
    return stmt


def prints_values(stmt: nodes.Node) -> bool:
    """Whether stmt prints anything but template text."""
    outputs = [stmt] if isinstance(stmt, nodes.Output) else stmt.find_all(nodes.Output)
    return any(not isinstance(child, nodes.TemplateData) for output in outputs for child in output.nodes)


def _autoescape(on: bool, lineno: int) -> nodes.EvalContextModifier:
    return nodes.EvalContextModifier([nodes.Keyword("autoescape", nodes.Const(on))], lineno=lineno)


class PageTemplates(jinja2.Environment):
    """Jinja's environment, with autoescaped templates rewritten by _FastOutput as they are
    compiled. Pages are byte-identical to Jinja's own (tests/test_render.py)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.filters[ESCAPE_FILTER] = escape_output
        self.filters[JOIN_FILTER] = "".join

    def make_globals(self, d: Mapping[str, Any] | None) -> Any:
        """A template's globals as one plain dict, not Jinja's ChainMap over the environment's:
        each render (and each include) copies them into a new context, and copying a ChainMap
        runs in Python (~3 µs a copy). Nothing adds globals once templates are loaded."""
        return {**self.globals, **(d or {})}

    def compile(self, source: str | nodes.Template, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        """Templates given as text (every loader and from_string) are parsed, rewritten by
        _FastOutput and compiled; a tree passed in is compiled as it is. Nothing is rewritten
        when autoescape is not simply True, or with finalize or async. Should the rewrite itself
        fail (a Jinja release changing its nodes), the template is compiled as Jinja would and
        the failure logged: pages stay right, only slower (tests/test_render.py fails loudly)."""
        if isinstance(source, str) and self.fast_output:
            tree = self.parse(source, name, filename)
            switch = tree.find(nodes.EvalContextModifier)
            if switch is not None:
                raise jinja2.TemplateSyntaxError(
                    "page templates are always autoescaped: no {% autoescape %} blocks (the output rewrite in "
                    "sentinel/web/fast_output.py relies on it); print Markup for text that is already HTML",
                    switch.lineno, name, filename)
            try:
                _FastOutput(self, tree).template(tree)
                tree.set_environment(self)
            except Exception:
                log.exception("template %s: output rewrite failed; compiled as Jinja would", name)
                tree = self.parse(source, name, filename)
            source = tree
        if raw:  # Jinja's two signatures: the Python source, or its code object
            return super().compile(source, name, filename, True, defer_init)
        return super().compile(source, name, filename, False, defer_init)

    @property
    def fast_output(self) -> bool:
        return self.autoescape is True and self.finalize is None and not self.is_async
