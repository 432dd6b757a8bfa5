#!/usr/bin/python3
"""rest_spec_check.py SPEC.yaml RESPONSES.jsonl: checks each recorded REST response against the
Iceberg REST catalog's OpenAPI document (third_party/iceberg/rest-catalog-open-api.yaml).

Each line of RESPONSES is {"method", "path", "status", "body"}: `path` as the client sent it
(/v1/namespaces/db/tables/t), `body` the answer's text. The path is matched to the document's
templates (/v1/{prefix}/namespaces/{namespace}/tables/{table}, with no prefix), the status to the
operation's responses (exact, then 4XX/5XX, then default), and the body validated against that
response's application/json schema; a response the document gives no content must have no body.
Two answers the document describes once for all operations: 406 (components/responses/
UnsupportedOperationResponse: "the server does not support this operation"), for an operation
that does not list it, and 400 (BadRequestErrorResponse) for a path it does not have at all.
A 406 body is checked as IcebergErrorResponse ({"error": ErrorModel}): the document's
UnsupportedOperationResponse names the bare ErrorModel as its schema but shows the wrapped body as
its example, which is what every other error response has and upstream's ErrorResponseParser
writes. A HEAD answer has no body (HTTP), whatever the document gives the status.
Prints each invalid response and the counts; exit 0 when every one is valid (and there was one)."""
import json
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit(f"rest_spec_check.py: {e.name} is missing (Debian: python3-jsonschema, python3-yaml; ./run.sh installs them)")


def templates(spec):
    out = []
    for template in spec["paths"]:
        pattern = re.escape(template).replace(re.escape("{prefix}/"), "(?:[^/]+/)?")
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", pattern)
        out.append((re.compile("^" + pattern + "$"), template))
    return out


def deref(spec, node):
    while isinstance(node, dict) and set(node) >= {"$ref"} and node["$ref"].startswith("#/"):
        target = spec
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def response_for(spec, operation, status):
    responses = operation.get("responses", {})
    for key in (str(status), f"{str(status)[0]}XX", "default"):
        for k, v in responses.items():
            if str(k) == key:
                return deref(spec, v)
    return None


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        spec = yaml.safe_load(f)
    paths = templates(spec)
    cls = jsonschema.validators.validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"})
    resolver = jsonschema.RefResolver(base_uri="", referrer=spec)
    checked = invalid = 0
    with open(argv[2]) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    for r in lines:
        where = f'{r["method"]} {r["path"]} -> {r["status"]}'
        path = r["path"].split("?")[0]
        template = next((t for p, t in paths if p.match(path)), None)
        operation = spec["paths"].get(template, {}).get(r["method"].lower()) if template else None
        checked += 1
        responses = spec["components"]["responses"]
        if operation is None and r["status"] == 400:
            operation = {"operationId": "(no route)", "responses": {400: responses["BadRequestErrorResponse"]}}
        if operation is None:
            print(f"INVALID {where}: no operation of the specification")
            invalid += 1
            continue
        response = response_for(spec, operation, r["status"])
        if r["status"] == 406 and (response is None or response is responses["UnsupportedOperationResponse"]):
            response = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/IcebergErrorResponse"}}}}
        if response is None:
            print(f'INVALID {where}: {operation.get("operationId")} has no response {r["status"]}')
            invalid += 1
            continue
        content = response.get("content", {}).get("application/json")
        body = r["body"]
        if r["method"] == "HEAD":
            content = None
        if content is None:
            if body not in ("", None):
                print(f"INVALID {where}: the specification gives this response no body, it has one")
                invalid += 1
            continue
        try:
            doc = json.loads(body)
        except (TypeError, ValueError) as e:
            print(f"INVALID {where}: the body is not JSON: {e}")
            invalid += 1
            continue
        errors = list(cls(content["schema"], resolver=resolver).iter_errors(doc))
        if errors:
            e = min(errors, key=lambda e: len(list(e.absolute_path)))
            print(f'INVALID {where} ({operation.get("operationId")}): {"/".join(map(str, e.absolute_path))}: {e.message[:300]}')
            invalid += 1
    print(f"{checked} response(s) checked against the specification, {invalid} invalid")
    return 0 if checked > 0 and invalid == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
