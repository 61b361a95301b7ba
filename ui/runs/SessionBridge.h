#pragma once
// Converting between the GUI's RunStore and core's Session (files, recovery, `figure --session`).
#include <QString>

#include "output/Session.h"
#include "runs/RunStore.h"

namespace ade::ui {

ade::Session sessionFromStore(const RunStore& store, const nlohmann::json& chartSettings = {});
// One run as a session keeps it; without `withData` only its identity, config, state and
// history columns (no records, snapshots or parameters: the recovery writer adds those).
ade::SessionRun sessionRunFromRecord(const RunRecord& r, bool withData = true);
// Adds the session's runs to the store (names made unique); returns the ids added.
// `recovered`: the session is a recovery file after a crash: a run that was still running
// when it was saved is stopped at its last record, says so ("stopped at iteration N by a
// crash …"), and its last snapshot is its parameters (what Continue goes on from).
std::vector<int> addSessionToStore(const ade::Session& session, RunStore& store,
                                   bool recovered = false);
// The iteration a stopped run's final parameters belong to: its last record, or its last
// snapshot's iteration when those parameters are that snapshot's and older than the last record
// (a run recovered after a crash: its records went on after its last snapshot).
long paramsIteration(const RunRecord& r);
// Text embedded in exported files: every visible run's config and seed, and the CLI command
// that reproduces the data.
QString reproductionText(const RunStore& store, const QString& commandLine = {});

RunState stateFromStatus(ade::RunStatus s);

}  // namespace ade::ui
