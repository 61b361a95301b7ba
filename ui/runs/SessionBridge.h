#pragma once
// Converting between the GUI's RunStore and core's Session (files, recovery, `figure --session`).
#include <QString>

#include "runs/RunStore.h"
#include "output/Session.h"

namespace ade::ui {

ade::Session sessionFromStore(const RunStore& store, const nlohmann::json& chartSettings = {});
// Adds the session's runs to the store (names made unique); returns the ids added.
std::vector<int> addSessionToStore(const ade::Session& session, RunStore& store);
// Text embedded in exported files: every visible run's config and seed, and the CLI command
// that reproduces the data.
QString reproductionText(const RunStore& store, const QString& commandLine = {});

RunState stateFromStatus(ade::RunStatus s);

}  // namespace ade::ui
