// order lines (sync points between writers' steps), the resolution of WRITER.LABEL references
// once the whole file is read, and the check that the constraints cannot deadlock.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "lang/parser_impl.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr std::string_view kOrderExample = "e.g. order job-1.c1 -> job-2.c2";

}  // namespace

Status Parser::ParseRefText(const LineContext& ctx, const Token& t, RefText* out) {
  const size_t dot = t.text.find('.');
  if (t.kind != Token::Kind::kWord || t.is_pair || dot == std::string::npos) {
    return ctx.Error(t.col, fmt::format("expected a step reference WRITER.LABEL, got \"{}\"", t.text));
  }
  out->pos = ctx.Pos(t.col);
  out->writer = t.text.substr(0, dot);
  out->label = t.text.substr(dot + 1);
  // Labels hold no '.', so a second one names a point inside the line: only `publish`.
  if (const size_t point = out->label.find('.'); point != std::string::npos) {
    const std::string name = out->label.substr(point + 1);
    if (name != "publish") {
      return ctx.Error(
          t.col + static_cast<int>(dot + point) + 2,
          fmt::format("unknown point \"{}\" in \"{}\" (expected WRITER.LABEL or WRITER.LABEL.publish)", name, t.text));
    }
    out->label.resize(point);
    out->publish = true;
  }
  COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, out->writer, t.col, "writer name"));
  if (!IsRefName(out->label))
    COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, out->label, t.col + static_cast<int>(dot) + 1, "label"));
  return Status::OK();
}

Status Parser::ParseOrder(const LineContext& ctx, Tokens toks) {
  if (toks.size() < 2) {
    return ctx.Error(toks[0].end_col,
                     fmt::format("expected WRITER.LABEL -> WRITER.LABEL after order, {}", kOrderExample));
  }
  RefText prev;
  COMMITLAB_RETURN_IF_ERROR(ParseRefText(ctx, toks[1], &prev));
  size_t i = 2;
  do {
    if (i >= toks.size() || toks[i].text != "->" || toks[i].kind != Token::Kind::kWord) {
      const int col = i < toks.size() ? toks[i].col : toks[i - 1].end_col;
      const std::string got = i < toks.size() ? fmt::format(", got \"{}\"", toks[i].text) : "";
      return ctx.Error(col, fmt::format("expected \"->\" after \"{}\"{} ({})", toks[i - 1].text, got, kOrderExample));
    }
    if (i + 1 >= toks.size())
      return ctx.Error(toks[i].end_col, fmt::format("expected a step WRITER.LABEL after \"->\""));
    RefText next;
    COMMITLAB_RETURN_IF_ERROR(ParseRefText(ctx, toks[i + 1], &next));
    OrderEdge edge;
    edge.pos = prev.pos;
    edge.text = fmt::format("{}.{}{} -> {}.{}{}", prev.writer, prev.label, prev.publish ? ".publish" : "", next.writer,
                            next.label, next.publish ? ".publish" : "");
    pending_order_.push_back({prev, next, s_.order.size()});
    s_.order.push_back(std::move(edge));
    prev = std::move(next);
    i += 2;
  } while (i < toks.size());
  return Status::OK();
}

Status Parser::ResolveRef(const RefText& ref, size_t* writer, const LabelInfo** label) const {
  const std::optional<size_t> w = FindWriter(ref.writer);
  if (!w) return ErrorAt(ref.pos, fmt::format("writer \"{}\" is not declared", ref.writer));
  auto it = labels_[*w].find(ref.label);
  if (it == labels_[*w].end()) {
    std::string hint;
    if (labels_[*w].count(ref.label + "[1]") != 0)
      hint = fmt::format(" (it labels a line inside a repeat: use {}[1], {}[2], ...)", ref.label, ref.label);
    return ErrorAt(ref.pos, fmt::format("writer \"{}\" has no step labelled \"{}\"{}", ref.writer, ref.label, hint));
  }
  *writer = *w;
  *label = &it->second;
  return Status::OK();
}

Status Parser::ResolveReferences() {
  for (const PendingOrder& p : pending_order_) {
    size_t wb = 0, wa = 0;
    const LabelInfo* before = nullptr;
    const LabelInfo* after = nullptr;
    COMMITLAB_RETURN_IF_ERROR(ResolveRef(p.before, &wb, &before));
    COMMITLAB_RETURN_IF_ERROR(ResolveRef(p.after, &wa, &after));
    OrderEdge& e = s_.order[p.edge];
    // The labelled line finishes with its last step and starts with its first; its publish point
    // is its first step that publishes.
    e.before = {wb, before->last};
    e.after = {wa, after->first};
    if (p.before.publish) COMMITLAB_RETURN_IF_ERROR(PublishStep(p.before, wb, *before, &e.before.step));
    if (p.after.publish) COMMITLAB_RETURN_IF_ERROR(PublishStep(p.after, wa, *after, &e.after.step));
    e.before_publish = p.before.publish;
    e.after_publish = p.after.publish;
  }
  for (const PendingStepExpect& p : pending_expect_) {
    size_t w = 0;
    const LabelInfo* label = nullptr;
    if (p.ref.publish) return ErrorAt(p.ref.pos, "expect step names a line (WRITER.LABEL), not its publish point");
    COMMITLAB_RETURN_IF_ERROR(ResolveRef(p.ref, &w, &label));
    std::visit(
        [&](auto& body) {
          if constexpr (requires { body.first_step; }) {
            body.writer = w;
            body.first_step = label->first;
            body.last_step = label->last;
          }
        },
        s_.expectations[p.expectation].body);
  }
  return Status::OK();
}

Status Parser::PublishStep(const RefText& ref, size_t writer, const LabelInfo& label, size_t* step) const {
  const StepList& steps = s_.writers[writer].steps;
  for (size_t i = label.first; i <= label.last; ++i) {
    if (OpPublishes(steps[i].op)) {
      *step = i;
      return Status::OK();
    }
  }
  return ErrorAt(ref.pos, fmt::format("{}.{}.publish: line {} has no step that publishes (a commit, or an Iceberg "
                                      "operation such as append, overwrite, delete, counter commit)",
                                      ref.writer, ref.label, label.line));
}

// Each step is two nodes: up to its publish point (P) and after it (Q); each writer's nodes form
// a chain P0 Q0 P1 Q1 ..., and `order A.x -> B.y` adds the edge Qx -> Py (y starts after x
// finishes), `A.x.publish -> B.y` adds Px -> Py, `A.x -> B.y.publish` adds Qx -> Qy. The writers
// can finish iff this graph has no cycle (Kahn).
Status Parser::CheckOrderCycles() const {
  if (s_.order.empty()) return Status::OK();
  std::vector<size_t> base(s_.writers.size() + 1, 0);
  for (size_t w = 0; w < s_.writers.size(); ++w) base[w + 1] = base[w] + 2 * s_.writers[w].steps.size();
  const size_t n = base.back();
  auto source = [&](const OrderEdge& e) {
    return base[e.before.writer] + 2 * e.before.step + (e.before_publish ? 0 : 1);
  };
  auto target = [&](const OrderEdge& e) { return base[e.after.writer] + 2 * e.after.step + (e.after_publish ? 1 : 0); };

  // Order edges grouped by source and by target (CSR).
  const size_t m = s_.order.size();
  std::vector<size_t> out_start(n + 1, 0), in_start(n + 1, 0), out_edges(m), in_edges(m);
  for (const OrderEdge& e : s_.order) {
    ++out_start[source(e) + 1];
    ++in_start[target(e) + 1];
  }
  for (size_t v = 0; v < n; ++v) {
    out_start[v + 1] += out_start[v];
    in_start[v + 1] += in_start[v];
  }
  {
    std::vector<size_t> o(out_start.begin(), out_start.end() - 1), in(in_start.begin(), in_start.end() - 1);
    for (size_t i = 0; i < m; ++i) {
      out_edges[o[source(s_.order[i])]++] = i;
      in_edges[in[target(s_.order[i])]++] = i;
    }
  }
  std::vector<bool> first_of_writer(n + 1, false);
  for (size_t w = 0; w < s_.writers.size(); ++w) first_of_writer[base[w]] = true;
  auto chain_pred = [&](size_t v) { return !first_of_writer[v]; };
  auto chain_succ = [&](size_t v) { return v + 1 < n && !first_of_writer[v + 1]; };

  std::vector<size_t> indegree(n, 0);
  for (size_t v = 0; v < n; ++v) indegree[v] = (chain_pred(v) ? 1 : 0) + (in_start[v + 1] - in_start[v]);
  std::vector<size_t> ready;
  for (size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push_back(v);
  size_t done = 0;
  while (!ready.empty()) {
    const size_t v = ready.back();
    ready.pop_back();
    ++done;
    auto release = [&](size_t u) {
      if (--indegree[u] == 0) ready.push_back(u);
    };
    if (chain_succ(v)) release(v + 1);
    for (size_t k = out_start[v]; k < out_start[v + 1]; ++k) release(target(s_.order[out_edges[k]]));
  }
  if (done == n) return Status::OK();

  // Every node left has a predecessor that is also left: walk backwards until a node repeats.
  size_t v = 0;
  while (indegree[v] == 0) ++v;
  std::vector<size_t> seen_at(n, SIZE_MAX);
  std::vector<size_t> walk_edges;  // order edge taken into each walked node, SIZE_MAX for the chain
  while (seen_at[v] == SIZE_MAX) {
    seen_at[v] = walk_edges.size();
    size_t edge = SIZE_MAX, pred = 0;
    if (chain_pred(v) && indegree[v - 1] != 0) {
      pred = v - 1;
    } else {
      for (size_t k = in_start[v]; k < in_start[v + 1]; ++k) {
        if (indegree[source(s_.order[in_edges[k]])] != 0) {
          edge = in_edges[k];
          pred = source(s_.order[edge]);
          break;
        }
      }
    }
    walk_edges.push_back(edge);
    v = pred;
  }
  std::vector<size_t> cycle;  // order edges, backwards
  for (size_t k = seen_at[v]; k < walk_edges.size(); ++k)
    if (walk_edges[k] != SIZE_MAX) cycle.push_back(walk_edges[k]);
  std::reverse(cycle.begin(), cycle.end());
  const auto earliest = std::min_element(cycle.begin(), cycle.end(), [&](size_t a, size_t b) {
    return std::tie(s_.order[a].pos.line, s_.order[a].pos.col) < std::tie(s_.order[b].pos.line, s_.order[b].pos.col);
  });
  std::rotate(cycle.begin(), earliest, cycle.end());
  std::string list;
  for (size_t e : cycle) {
    if (!list.empty()) list += ", ";
    list += fmt::format("{} (line {})", s_.order[e].text, s_.order[e].pos.line);
  }
  return ErrorAt(
      s_.order[cycle.front()].pos,
      fmt::format("order constraints form a cycle with the writers' step order, so no writer could go on: {}", list));
}

}  // namespace commitlab::scenarios::internal
