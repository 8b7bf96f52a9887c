"""MkDocs hooks: the parts of the site generated from the code, so that they cannot drift.

A page asks for a generated block with a line ``<!-- gen:NAME -->``; :func:`on_page_markdown`
replaces it with ``GENERATORS[NAME]()`` (an unknown name fails the build). The rules tables come
from the ``Rules`` presets (``simcore/rules.py``), the data tables from the record dtypes, their
descriptions and the code enums (``simcore/records.py``), the bonus flags from
``simcore/hand/scoring_kernels.py`` (read as text: importing it would load numba). :func:`on_files`
adds the
notebooks of ``notebooks/`` to the site (rendered with their stored outputs by mkdocs-jupyter,
never executed). Only light modules are imported (no numba, no pandas).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # this checkout's simcore, also without an install

from simcore import records, rules, tiles  # noqa: E402 (after the path)

NOTEBOOKS = ROOT / "notebooks"
MARKER = re.compile(r"^<!-- gen:([a-z0-9-]+) -->[ \t]*$", re.MULTILINE)

# The Chinese term of every rule parameter (the rules page lists them; a parameter added to
# Rules without one here fails the build).
PARAMETER_TERMS = {
    "exchange_three": "换三张",
    "void_first": "先打缺门 (定缺)",
    "pass_win_rule": "过手胡",
    "must_win_last_four": "最后四张必须胡",
    "added_kong_only_on_draw": "巴杠 (摸牌即杠)",
    "drizzle": "毛毛雨",
    "kong_discard_transfer": "呼叫转移",
    "kong_discard_pays_all": "杠上炮 (点炮者包赔)",
    "direct_kong_flower": "直杠杠上花",
    "refund_kongs_if_not_ready": "退税",
    "pig_penalty": "查花猪",
    "pig_payees": "查花猪 (赔给谁)",
    "pig_pay": "查花猪 (赔多少)",
    "pig_pays_ready": "花猪查大叫",
    "ready_pay": "查大叫",
    "dead_wait_counts": "死叫",
    "self_draw_bonus": "自摸加底",
    "heaven_earth": "天胡 / 地胡",
    "max_fan": "天胡 / 地胡 封顶番",
    "fan_cap": "封顶",
    "fan_plain": "平胡",
    "fan_all_pungs": "对对胡",
    "fan_seven_pairs": "七对",
    "fan_golden_hook": "金钩钓",
    "fan_pungs_258": "将对",
    "fan_flush": "清一色",
    "fan_terminals": "带幺",
    "players": "三人 / 四人",
    "suits": "两房 / 三房",
    "blood_river": "血流成河",
}


# --------------------------------------------------------------------------------------------
# helpers


def _table(header: list[str], rows: list[list[object]]) -> str:
    """A Markdown table; ``|`` inside a cell is escaped."""
    def cell(value: object) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _value(value: object) -> str:
    """A parameter value as the tables show it."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "–"
    return f"`{value}`" if isinstance(value, str) else str(value)


def _presets() -> list[str]:
    return list(rules.PRESETS)


def _code(text: str) -> str:
    return f"`{text}`"


# --------------------------------------------------------------------------------------------
# rules


def gen_rules_parameters() -> str:
    """Every rule parameter: Chinese term, type, allowed values, section and meaning."""
    missing = [name for name in rules.PARAMETERS if name not in PARAMETER_TERMS]
    extra = [name for name in PARAMETER_TERMS if name not in rules.PARAMETERS]
    if missing or extra:
        raise PluginError(f"PARAMETER_TERMS in docs/hooks.py: missing {missing}, unknown {extra}")
    rows = []
    for p in rules.describe_parameters():
        allowed = ", ".join(_value(a) if a is not None else "`None`" for a in p["allowed"])
        sections = ", ".join(
            f"[{s.strip()}](#section-{s.strip()})" for s in str(p["section"]).split(",")
        )
        rows.append([
            _code(str(p["name"])), PARAMETER_TERMS[str(p["name"])], allowed, sections,
            p["meaning"], p["seeds"],
        ])
    return _table(["parameter", "中文", "values", "section", "meaning", "sources"], rows)


def gen_rules_presets() -> str:
    """Every parameter under every preset."""
    names = _presets()
    rows = [
        [_code(name)] + [_value(getattr(rules.PRESETS[p], name)) for p in names]
        for name in rules.PARAMETERS
    ]
    return _table(["parameter"] + [_code(p) for p in names], rows)


_PATTERNS = (
    ("plain (平胡)", "fan_plain"),
    ("all pungs (对对胡)", "fan_all_pungs"),
    ("seven pairs (七对)", "fan_seven_pairs"),
    ("golden hook (金钩钓)", "fan_golden_hook"),
    ("258 pungs (将对)", "fan_pungs_258"),
)


def _pattern_fan(r: rules.Rules, name: str) -> int:
    value = getattr(r, name)
    return r.fan_all_pungs if value is None else value  # an absent pattern scores as all pungs


def _capped(r: rules.Rules, fan: int) -> int:
    return fan if r.fan_cap is None else min(fan, r.fan_cap)


def gen_rules_fan_summary() -> str:
    """The fan of each pattern and modifier, the cap and the special wins, one row per preset."""
    rows = []
    for p in _presets():
        r = rules.PRESETS[p]
        cells = []
        for _, name in _PATTERNS:
            value = getattr(r, name)
            cells.append("= all pungs" if value is None else str(value))
        he = "normal" if r.heaven_earth == "normal" else f"{r.max_fan} fan"
        rows.append([
            _code(p), *cells, f"+{r.fan_flush}",
            "off" if r.fan_terminals is None else f"+{r.fan_terminals}",
            "none" if r.fan_cap is None else f"{r.fan_cap} ({2 ** r.fan_cap}x)",
            he, _value(r.self_draw_bonus),
        ])
    header = ["preset"] + [label for label, _ in _PATTERNS] + [
        "flush (清一色)", "terminals (带幺)", "cap (封顶)", "天胡/地胡", "self-draw (自摸)"]
    return _table(header, rows)


def gen_rules_fan_tables() -> str:
    """Per preset: every pattern, alone and with a full flush, in fan and in base units."""
    parts = []
    for p in _presets():
        r = rules.PRESETS[p]
        rows = []
        for label, name in _PATTERNS:
            fan = _pattern_fan(r, name)
            flush = fan + r.fan_flush
            # four pungs of ranks 2, 5, 8 need two suits: 258 pungs is never a full flush
            can_flush = name != "fan_pungs_258" or getattr(r, name) is None
            rows.append([
                label, fan, 2 ** _capped(r, fan), flush if can_flush else "–",
                2 ** _capped(r, flush) if can_flush else "–", 2 ** _capped(r, fan + 1),
            ])
        cap = "no cap" if r.fan_cap is None else f"capped at {r.fan_cap} fan"
        parts.append(
            f"**`{p}`** ({cap}; each extra root, kong flower, kong discard, robbed kong or "
            f"last tile is +1 fan)\n\n"
            + _table(
                ["pattern", "fan", "units", "+ flush: fan", "+ flush: units",
                 "+ 1 root: units"],
                rows,
            )
        )
    return "\n\n".join(parts)


def _direct_kong(r: rules.Rules) -> str:
    text = "discarder pays 2"
    return text + ", and every other player in play 1 (毛毛雨)" if r.drizzle else text


def _added_kong(r: rules.Rules) -> str:
    text = "each other player in play pays 1"
    return text + ", only when made with the tile just drawn" if r.added_kong_only_on_draw else text


def _kong_discard(r: rules.Rules) -> str:
    parts = ["+1 fan"]
    if r.kong_discard_transfer:
        parts.append("the discarder also hands each winner that kong's money (呼叫转移)")
    if r.kong_discard_pays_all:
        parts.append("the discarder pays what every other player in play would pay for a "
                     "self-drawn win")
    return "; ".join(parts)


def gen_rules_kongs() -> str:
    """Kong payments and the kong-related rules, one row per preset."""
    rows = []
    for p in _presets():
        r = rules.PRESETS[p]
        flower = ("paid as a self-drawn win" if r.direct_kong_flower == "self_draw"
                  else "paid by the kong tile's discarder alone")
        rows.append([
            _code(p), _direct_kong(r), _added_kong(r), "each other player in play pays 2",
            _kong_discard(r), flower,
            "returned at a drawn end" if r.refund_kongs_if_not_ready else "kept",
        ])
    return _table(
        ["preset", "direct kong (直杠)", "added kong (巴杠)", "concealed kong (暗杠)",
         "kong discard (杠上炮)", "kong flower after a direct kong", "a not-ready player's "
         "kong money (退税)"],
        rows,
    )


def _pig(r: rules.Rules) -> str:
    if r.suits == 2:
        return "no flower pig (two suits)"
    if r.pig_pay == "winner_hand":
        return "each player who has won: the value of that winner's hand (2^fan)"
    if r.pig_penalty == 0:
        return "nothing fixed (0 units; a pig is not ready)"
    whom = "each non-pig player in play" if r.pig_payees == "in_play" else "every non-pig player"
    return f"{r.pig_penalty} units to {whom}"


def gen_rules_drawn_end() -> str:
    """The drawn-end settlement (黄庄), one row per preset."""
    rows = []
    for p in _presets():
        r = rules.PRESETS[p]
        ready = "best winning tile" if r.ready_pay == "max" else "worst winning tile"
        rows.append([
            _code(p), _pig(r), "yes" if r.pig_pays_ready else "no",
            f"value of the ready hand's {ready}", "yes" if r.dead_wait_counts else "no",
            "yes" if r.refund_kongs_if_not_ready else "no",
        ])
    return _table(
        ["preset", "flower pig pays (查花猪)", "pigs also pay the ready check",
         "a not-ready player pays each ready one (查大叫)", "dead wait counts as ready (死叫)",
         "refunds (退税)"],
        rows,
    )


def gen_rules_variants() -> str:
    """Players, suits and blood river of every preset, with the sizes that follow."""
    rows = []
    for p in _presets():
        r = rules.PRESETS[p]
        wall = records.wall_size(r.suits)
        dealt = records.dealt_tiles(r.players)
        rows.append([
            _code(p), r.players, r.suits, _value(r.blood_river), wall, dealt, wall - dealt,
            r.players - 1 if not r.blood_river else "– (the wall runs out)",
        ])
    return _table(
        ["preset", "players", "suits", "blood river (血流成河)", "tiles", "dealt",
         "drawn at most", "winners that end the deal"],
        rows,
    )


# --------------------------------------------------------------------------------------------
# data

_CATEGORICAL = {  # columns that to_dataframe / wins_to_dataframe turn into categoricals
    "policy": "category: the policy spec",
    "void_suit": "category: `m`, `p`, `s` (NaN: none)",
    "win_kind": "category: `WinKind` name (`''` = no win)",
    "kind": "category: `WinKind` name",
    "pattern": "category: `Pattern` name (`''` = no win)",
    "exchange_dir": "category: `Exchange` name",
}

_CODE_LINKS = {  # code tables below, by the enum a column holds
    "`Suit`": "[`Suit`](#suits)",
    "`WinKind`": "[`WinKind`](#win-kinds)",
    "`Pattern`": "[`Pattern`](#patterns)",
    "`Exchange`": "[`Exchange`](#exchange-directions)",
    "bit set of the bonus flags": "bit set of the [bonus flags](#bonus-flags)",
}


def _describe(text: str) -> str:
    for word, link in _CODE_LINKS.items():
        text = text.replace(word, link, 1)
    return text


def _columns(dtype: object, descriptions: dict[str, str], table: str) -> str:
    names = list(dtype.names)  # type: ignore[attr-defined]
    if list(descriptions) != names:
        raise PluginError(f"simcore/records.py: the descriptions of {table} do not match its "
                          "dtype (tests/unit/test_records.py says which)")
    rows = []
    for name in names:
        kind = dtype[name]  # type: ignore[index]
        pandas = _CATEGORICAL.get(name, "bool" if kind.kind == "b" else str(kind))
        rows.append([_code(name), _code(str(kind)), pandas, _describe(descriptions[name])])
    return _table(["column", "dtype", "in pandas", "meaning"], rows)


def gen_data_records() -> str:
    return _columns(records.RECORD_DTYPE, records.RECORD_DESCRIPTIONS, "RECORD_DTYPE")


def gen_data_wins() -> str:
    return _columns(records.WIN_DTYPE, records.WIN_DESCRIPTIONS, "WIN_DTYPE")


def _enum(enum: type, names: dict[int, str], meanings: dict[str, str]) -> str:
    rows = []
    for member in enum:
        meaning = meanings.get(member.name)
        if meaning is None:
            raise PluginError(f"docs/hooks.py: no meaning for {enum.__name__}.{member.name}")
        name = names.get(int(member))
        shown = "–" if name is None else ("`''` (empty)" if name == "" else _code(name))
        rows.append([int(member), shown, meaning])
    return _table(["code", "name in pandas", "meaning"], rows)


def gen_code_suit() -> str:
    return _enum(
        records.Suit,
        dict(enumerate(records.SUIT_LETTERS)),
        {"M": "characters 万, tile types 0..8", "P": "dots 筒, tile types 9..17",
         "S": "bamboo 条, tile types 18..26"},
    ) + "\n\n`void_suit = -1`: no void was declared (two suits; NaN in pandas)."


def gen_code_pattern() -> str:
    names = {-1: ""} | dict(enumerate(records.PATTERN_NAMES))
    return _enum(records.Pattern, names, {
        "NONE": "no win",
        "PLAIN": "plain (平胡): four melds and a pair, nothing more",
        "ALL_PUNGS": "all pungs (对对胡): the four melds are triplets or kongs",
        "SEVEN_PAIRS": "seven pairs (七对), concealed; four alike count as two pairs",
        "GOLDEN_HOOK": "golden hook (金钩钓): all pungs, four melds declared, won on the pair",
        "PUNGS_258": "258 pungs (将对): all pungs, every tile of rank 2, 5 or 8",
    })


def gen_code_win_kind() -> str:
    return _enum(records.WinKind, dict(enumerate(records.WIN_KIND_NAMES)), {
        "NONE": "no win",
        "SELF_DRAW": "self-drawn win (自摸), every other player in play pays",
        "DISCARD": "win on a discard (点炮), the discarder pays alone",
        "ROBBED_KONG": "robbing an added kong (抢杠胡), the kong maker pays alone",
        "KONG_FLOWER": "win on a kong's replacement draw (杠上花)",
    })


def gen_code_exchange() -> str:
    return _enum(records.Exchange, dict(enumerate(records.EXCHANGE_NAMES)), {
        "NONE": "no exchange of three (the rules have none)",
        "NEXT": "each seat passes to the next seat (clockwise in turn order)",
        "PREVIOUS": "each seat passes to the previous seat",
        "ACROSS": "each seat passes across the table (four players only)",
    })


def gen_code_meld() -> str:
    letters = {code: letter for letter, code in records.MELD_LETTERS.items()}
    return _enum(records.MeldKind, {}, {
        "PUNG": "pung (碰), written `P` in hand notation",
        "KONG": "exposed kong: direct (直杠) or added (巴杠), written `K`",
        "CONCEALED_KONG": "concealed kong (暗杠), written `C` among the melds",
    }) + "\n\n" + ", ".join(
        f"`{letters[int(m)]}` = {int(m)}" for m in records.MeldKind
    ) + " (the letters of `simcore.records.MELD_LETTERS`)."


def gen_code_bonuses() -> str:
    """The ``B_*`` flags, read from simcore/hand/scoring_kernels.py's source (no numba import)."""
    source = (ROOT / "simcore" / "hand" / "scoring_kernels.py").read_text(encoding="utf-8")
    comments = {}
    for line in source.splitlines():
        m = re.match(r"^(B_[A-Z_]+) = (\d+)\s*#\s*(.*)$", line)
        if m:
            comments[m.group(1)] = (int(m.group(2)), m.group(3))
    tree = ast.parse(source)
    values = {
        node.targets[0].id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("B_")
        and isinstance(node.value, ast.Constant)
    }
    if not values or set(values) != set(comments):
        raise PluginError(
            "docs/hooks.py: could not read the B_* flags of simcore/hand/scoring_kernels.py")
    rows = [[values[n], _code(n), comments[n][1]] for n in sorted(values, key=values.get)]
    return _table(["bit", "flag", "meaning"], rows)


def gen_tile_codes() -> str:
    """The 27 tile types: code, notation, English and Chinese names."""
    rows = []
    for rank in range(9):
        row: list[object] = [rank + 1]
        for suit in range(3):
            t = suit * 9 + rank
            row += [t, _code(tiles.tile_str(t)), tiles.tile_name(t, "zh")]
        rows.append(row)
    header = ["rank"]
    for suit in range(3):
        letter = tiles.SUITS[suit]
        header += [f"{letter} code", "notation", tiles.suit_name(suit, "zh")]
    return _table(header, rows)


# --------------------------------------------------------------------------------------------
# notebooks


def _notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _notebook_title(path: Path) -> tuple[str, str]:
    """The notebook's first heading and the first sentence after it."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"]).strip()
        lines = text.splitlines()
        if lines and lines[0].startswith("# "):
            paragraph = []
            for line in lines[1:]:
                if not line.strip():
                    if paragraph:
                        break
                    continue
                paragraph.append(line.strip())
            first = re.split(r"(?<=\.)\s", " ".join(paragraph), maxsplit=1)[0]
            return lines[0][2:].strip(), first
    return path.stem, ""


def gen_notebook_list() -> str:
    rows: list[str] = []
    for path in _notebook_paths():
        nb = json.loads(path.read_text(encoding="utf-8"))
        outputs = sum(len(c.get("outputs", [])) for c in nb["cells"] if c["cell_type"] == "code")
        title, first = _notebook_title(path)
        stored = "" if outputs else " *Committed without outputs: run it to see them.*"
        rows.append(f"- **[{title}]({path.name})** (`notebooks/{path.name}`): {first}{stored}")
    return "\n".join(rows)


GENERATORS: dict[str, Callable[[], str]] = {
    "rules-parameters": gen_rules_parameters,
    "rules-presets": gen_rules_presets,
    "rules-fan-summary": gen_rules_fan_summary,
    "rules-fan-tables": gen_rules_fan_tables,
    "rules-kongs": gen_rules_kongs,
    "rules-drawn-end": gen_rules_drawn_end,
    "rules-variants": gen_rules_variants,
    "data-records": gen_data_records,
    "data-wins": gen_data_wins,
    "code-suit": gen_code_suit,
    "code-pattern": gen_code_pattern,
    "code-win-kind": gen_code_win_kind,
    "code-exchange": gen_code_exchange,
    "code-meld": gen_code_meld,
    "code-bonuses": gen_code_bonuses,
    "tile-codes": gen_tile_codes,
    "notebook-list": gen_notebook_list,
}


# --------------------------------------------------------------------------------------------
# MkDocs events


@event_priority(100)  # before mkdocs-jupyter's on_files, which wraps every .ipynb it is given
def on_files(files: Files, config: dict) -> Files:
    """Add ``notebooks/*.ipynb`` (outside docs/) as pages under ``notebooks/``."""
    for path in _notebook_paths():
        files.append(File(
            f"notebooks/{path.name}",
            src_dir=str(ROOT),
            dest_dir=config["site_dir"],
            use_directory_urls=config["use_directory_urls"],
        ))
    return files


def on_page_markdown(markdown: str, page: object, config: dict, files: Files) -> str:
    """Replace each ``<!-- gen:NAME -->`` line with the generated block."""
    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise PluginError(f"{page.file.src_uri}: unknown generated block {name!r}; "  # type: ignore[attr-defined]
                              f"known: {', '.join(GENERATORS)}")
        return GENERATORS[name]()

    return MARKER.sub(replace, markdown)
