// The table commit of the REST catalog (rest_tables.h), apart from where tables are kept: the
// requirements checked against the table as it is now (UpdateRequirement.validate, with its
// messages), and the updates applied to it (TableMetadata.Builder via CatalogHandlers.commit).
#ifndef COMMITLAB_CATALOGS_SRC_REST_COMMIT_H_
#define COMMITLAB_CATALOGS_SRC_REST_COMMIT_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "commitlab/catalogs/rest_tables.h"
#include "commitlab/core/iceberg/model.h"

namespace commitlab::catalogs::internal {

RestReply BadRequest(std::string_view message);
RestReply CommitFailed(std::string_view message);

// The reply to the first requirement that fails against `now` (409 CommitFailedException), or
// 400 for one that is malformed or unknown; nullopt when all hold. `now` is null for a table that
// does not exist (only assert-create holds then).
std::optional<RestReply> CheckRequirements(const nlohmann::json& requirements, const iceberg::TableMetadata* now);

// The updates applied to `now`: the next version, at metadata file `location` (relative to the
// table's location), stamped `now_ms`; or the reply that refuses them (400, or 409 for a stale
// sequence number, which a client retries).
std::variant<iceberg::TableMetadata, RestReply> ApplyUpdates(const iceberg::TableMetadata& now,
                                                             const nlohmann::json& updates, std::string location,
                                                             int64_t now_ms);

// `text` parsed as JSON, or `fallback` when it is empty or not JSON.
nlohmann::json ParsedOr(const std::string& text, nlohmann::json fallback);
// An integer member of `j` as int64, when it is one (not above INT64_MAX).
std::optional<int64_t> IntOf(const nlohmann::json& j, std::string_view key);

// The highest field id of a schema (nested structs, lists and maps included): last-column-id.
int32_t MaxFieldId(const nlohmann::json& type);
// The highest partition field id of a spec, or 999 (unpartitioned) when it has none.
int32_t MaxPartitionFieldId(const nlohmann::json& spec);

}  // namespace commitlab::catalogs::internal

#endif  // COMMITLAB_CATALOGS_SRC_REST_COMMIT_H_
