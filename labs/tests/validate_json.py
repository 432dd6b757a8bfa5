#!/usr/bin/python3
"""validate_json.py KIND FILE...: checks each line of each FILE against docs/KIND.schema.json.
KIND is history (every line of a history, header first, footer last), report, check or check_history (one JSON
object), or writer (ack lines, then the summary last). Exit 0 when all hold; otherwise prints
FILE:LINE: what is wrong, and exits 1."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_json.py: the Python package jsonschema is missing (Debian: python3-jsonschema; ./run.sh installs it)")

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def validator(name):
    schemas = {p.name: json.loads(p.read_text()) for p in DOCS.glob("*.schema.json")}
    store = {}
    for file_name, schema in schemas.items():
        store[file_name] = schema
        store[schema["$id"]] = schema
    schema = schemas[name]
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("history", "report", "check", "check_history", "writer"):
        sys.exit(__doc__)
    kind = argv[1]
    check = validator(f"{kind}.schema.json")
    problems = 0
    for path in argv[2:]:
        lines = pathlib.Path(path).read_text().splitlines()
        if not lines:
            print(f"{path}: empty")
            problems += 1
        if kind == "history":
            if lines and json.loads(lines[0]).get("type") != "header":
                print(f"{path}:1: the first line is not the header")
                problems += 1
            if lines and json.loads(lines[-1]).get("type") != "footer":
                print(f"{path}:{len(lines)}: the last line is not the footer")
                problems += 1
        elif kind == "writer":
            if lines and json.loads(lines[-1]).get("command") != "writer":
                print(f"{path}:{len(lines)}: the last line is not the summary")
                problems += 1
        elif len(lines) != 1:
            print(f"{path}: a {kind} is one line, found {len(lines)}")
            problems += 1
        for number, line in enumerate(lines, 1):
            try:
                value = json.loads(line)
            except json.JSONDecodeError as e:
                print(f"{path}:{number}: not JSON: {e}")
                problems += 1
                continue
            errors = sorted(check.iter_errors(value), key=lambda e: list(e.path))
            for error in errors[:3]:
                error = jsonschema.exceptions.best_match([error])  # the most specific branch of a oneOf
                where = "/".join(str(p) for p in error.absolute_path) or "(the line)"
                print(f"{path}:{number}: {where}: {error.message[:300]}")
            problems += len(errors)
    if problems:
        print(f"{problems} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
