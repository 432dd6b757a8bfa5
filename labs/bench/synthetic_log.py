#!/usr/bin/python3
"""synthetic_log.py FORMAT N DIR: writes a synthetic commit log of N commits into DIR (a new folder),
for measuring `commitlab import` on logs larger than the vendored ones (labs/bench/import_memory.sh).

  delta    DIR/_delta_log/N.json: a streaming query appending one file per commit (txn appId q,
           version = its batch), and every 10th commit an OPTIMIZE that compacts every live file
           into one (dataChange=false), as a table kept small by compaction is; --append-only
           leaves the OPTIMIZEs out, so the live files grow with the log.
  paimon   DIR/snapshot/snapshot-N: two writers' APPEND snapshots with increasing identifiers,
           every 10th a COMPACT.
  iceberg  DIR/metadata/vN.metadata.json: each version adds one append snapshot and keeps the
           newest 10 (expire_snapshots) and the newest 10 metadata-log entries
           (write.metadata.previous-versions-max); --one-file writes one metadata file holding all
           N snapshots instead.
Timestamps are 1 s apart from 2024-01-01. The same arguments write the same bytes."""
import json
import os
import sys

T0 = 1704067200000


def delta(n, out, append_only):
    log = os.path.join(out, "_delta_log")
    os.makedirs(log)
    live = []
    for v in range(n):
        lines = []
        if v == 0:
            lines.append({"commitInfo": {"timestamp": T0, "operation": "CREATE TABLE", "isolationLevel": "Serializable",
                                         "isBlindAppend": True, "engineInfo": "synthetic"}})
            lines.append({"metaData": {"id": "synthetic", "format": {"provider": "parquet", "options": {}},
                                       "schemaString": "{\"type\":\"struct\",\"fields\":[]}", "partitionColumns": [],
                                       "configuration": {}, "createdTime": T0}})
            lines.append({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}})
        elif not append_only and v % 10 == 0:
            lines.append({"commitInfo": {"timestamp": T0 + 1000 * v, "operation": "OPTIMIZE", "readVersion": v - 1,
                                         "isolationLevel": "SnapshotIsolation", "isBlindAppend": False,
                                         "engineInfo": "synthetic-optimize"}})
            for p in live:
                lines.append({"remove": {"path": p, "deletionTimestamp": T0, "dataChange": False}})
            live = [f"part-{v:08d}-compacted.parquet"]
            lines.append({"add": {"path": live[0], "partitionValues": {}, "size": 1, "modificationTime": T0,
                                  "dataChange": False}})
        else:
            lines.append({"commitInfo": {"timestamp": T0 + 1000 * v, "operation": "STREAMING UPDATE",
                                         "readVersion": v - 1, "isolationLevel": "Serializable",
                                         "isBlindAppend": True, "engineInfo": "synthetic"}})
            lines.append({"txn": {"appId": "q", "version": v, "lastUpdated": T0}})
            p = f"part-{v:08d}.parquet"
            live.append(p)
            lines.append({"add": {"path": p, "partitionValues": {}, "size": 1, "modificationTime": T0,
                                  "dataChange": True}})
        with open(os.path.join(log, f"{v:020d}.json"), "w") as f:
            f.write("\n".join(json.dumps(l, separators=(",", ":")) for l in lines) + "\n")


def paimon(n, out):
    snap = os.path.join(out, "snapshot")
    os.makedirs(snap)
    for i in range(1, n + 1):
        user = f"writer-{i % 2}"
        kind = "COMPACT" if i % 10 == 0 else "APPEND"
        doc = {"version": 3, "id": i, "schemaId": 0, "baseManifestList": f"manifest-list-{i}-0",
               "deltaManifestList": f"manifest-list-{i}-1", "commitUser": user, "commitIdentifier": i,
               "commitKind": kind, "timeMillis": T0 + 1000 * i, "totalRecordCount": i, "deltaRecordCount": 1}
        with open(os.path.join(snap, f"snapshot-{i}"), "w") as f:
            f.write("{\n" + ",\n".join(f"  {json.dumps(k)} : {json.dumps(v)}" for k, v in doc.items()) + "\n}")
    with open(os.path.join(snap, "LATEST"), "w") as f:
        f.write(str(n))


def iceberg_meta(v, snapshots, mlog):
    current = snapshots[-1]["snapshot-id"] if snapshots else -1
    return {"format-version": 2, "table-uuid": "00000000-0000-0000-0000-000000000000", "location": "/t",
            "last-sequence-number": len(snapshots) and snapshots[-1]["sequence-number"],
            "last-updated-ms": T0 + 1000 * v, "last-column-id": 1, "current-schema-id": 0,
            "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": False,
                                                                       "type": "long"}]}],
            "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999,
            "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
            "current-snapshot-id": current, "snapshots": snapshots,
            "snapshot-log": [{"timestamp-ms": s["timestamp-ms"], "snapshot-id": s["snapshot-id"]} for s in snapshots],
            "metadata-log": mlog}


def iceberg_snapshot(i):
    s = {"sequence-number": i, "snapshot-id": 1000 + i, "timestamp-ms": T0 + 1000 * i,
         "summary": {"operation": "append", "added-data-files": "1", "added-records": "1", "spark.app.id": "app"},
         "manifest-list": f"/t/metadata/snap-{i}.avro", "schema-id": 0}
    if i > 1:
        s["parent-snapshot-id"] = 999 + i
    return s


def iceberg(n, out, one_file):
    meta = os.path.join(out, "metadata")
    os.makedirs(meta)
    if one_file:
        snapshots = [iceberg_snapshot(i) for i in range(1, n + 1)]
        with open(os.path.join(meta, "v1.metadata.json"), "w") as f:
            json.dump(iceberg_meta(n, snapshots, []), f, indent=1)
        return
    snapshots, mlog = [], []
    for v in range(1, n + 1):
        snapshots = (snapshots + [iceberg_snapshot(v)])[-10:]
        with open(os.path.join(meta, f"v{v}.metadata.json"), "w") as f:
            json.dump(iceberg_meta(v, snapshots, mlog), f, indent=1)
        mlog = (mlog + [{"timestamp-ms": T0 + 1000 * v, "metadata-file": f"/t/metadata/v{v}.metadata.json"}])[-10:]


def main(argv):
    if len(argv) < 4 or argv[1] not in ("delta", "paimon", "iceberg"):
        sys.exit(__doc__)
    fmt, n, out = argv[1], int(argv[2]), argv[3]
    os.makedirs(out)
    if fmt == "delta":
        delta(n, out, "--append-only" in argv)
    elif fmt == "paimon":
        paimon(n, out)
    else:
        iceberg(n, out, "--one-file" in argv)


if __name__ == "__main__":
    main(sys.argv)
