#pragma once
// The crash-recovery file, written off the GUI thread and incrementally. Every save the GUI
// thread hands over only what changed since the last one: each run's new records and new
// parameter snapshots (copies), its state, and its initial and final parameters once they
// exist. A worker thread keeps every run's records and snapshots as session-file text,
// serialized once (core/output/Session.h: historyRowText, snapshotText), splices them into a
// complete session file (with parameters) and writes it atomically. So a save costs the GUI
// thread a copy of the new data (well under a millisecond for nine runs), and the worker the
// new data's text plus one write of the file; the file is a plain session file that
// readSessionFile opens.
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "output/Session.h"

namespace ade::ui {

class RunStore;

class RecoveryWriter {
  public:
    RecoveryWriter();
    ~RecoveryWriter();  // stop()

    // A new file: everything is written again at the next save.
    void setPath(const std::filesystem::path& path);
    // GUI thread: what changed in `store` since the last save, with the session's own fields
    // (`header`: preset, plan, chart settings; its runs are ignored) and each run's claim label
    // (run id -> the preset's run label). Returns at once; the worker writes.
    void save(const RunStore& store, const ade::Session& header,
              const std::map<int, std::string>& claimLabels);
    // Waits until every save handed over is on disk; false (and `error`) when the last failed.
    bool flush(std::string* error = nullptr);
    // Drops saves not yet started and waits for the one being written (a clean close, which
    // then removes the file).
    void cancel();
    // Writes what is pending and ends the worker thread (a closed window keeps no thread);
    // the next save starts it again.
    void stop();

    double lastWriteMs() const;     // the worker's last write: text and file
    std::size_t lastBytes() const;  // the last file's size
    int writes() const;

  private:
    struct RunDelta {
        int id = 0;
        ade::SessionRun run;   // meta: history.columns only, no rows, snapshots or params
        bool restart = false;  // records or columns the worker has are no longer the run's
        std::vector<std::vector<double>> rows;                    // new records
        std::vector<ade::Snapshot> snapshots;                     // new snapshots
        std::optional<ade::ParamSet> initialParams, finalParams;  // when new
    };
    struct Delta {
        std::filesystem::path path;
        ade::Session header;
        std::vector<RunDelta> runs;  // every run of the store, in order
    };
    struct Sent {  // GUI thread: what was handed over per run
        std::size_t rows = 0, snapshots = 0;
        std::vector<std::string> columns;
        bool initial = false, final = false;
    };
    struct Mirror {  // worker: a run as session text
        ade::SessionRun run;
        std::string rows;
        std::vector<std::string> snapshots;
    };

    void work();
    void apply(Delta& d);
    bool write(std::string* error);

    std::filesystem::path path_;  // GUI thread
    std::map<int, Sent> sent_;    // GUI thread

    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::vector<Delta> queue_;
    bool busy_ = false, quit_ = false;
    std::string error_;
    double lastWriteMs_ = 0.0;
    std::size_t lastBytes_ = 0;
    int writes_ = 0;

    // Worker thread only.
    std::filesystem::path target_;
    ade::Session header_;
    std::vector<int> order_;
    std::map<int, Mirror> mirror_;

    std::thread thread_;
};

}  // namespace ade::ui
