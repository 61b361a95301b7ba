// Optuna 3.1's SQLite storage (schema version 12), read-only through libsqlite3: the file is
// opened with SQLITE_OPEN_READONLY and the URI's mode=ro, so neither the study nor a journal
// beside it is ever written (a study being written by a running optimisation is read as it
// stands; a locked moment is reported as an error and the views try again later).
#include <sqlite3.h>

#include <cmath>
#include <map>
#include <memory>

#include "sweep/OptunaStudy.h"

namespace ade {

namespace {

struct Db {
    sqlite3* db = nullptr;
    ~Db() {
        if (db) sqlite3_close(db);
    }
};

struct Stmt {
    sqlite3_stmt* s = nullptr;
    ~Stmt() {
        if (s) sqlite3_finalize(s);
    }
};

std::string text(sqlite3_stmt* s, int col) {
    const unsigned char* t = sqlite3_column_text(s, col);
    return t ? reinterpret_cast<const char*>(t) : "";
}

// A stored number with its type ('FINITE', 'INF_POS', 'INF_NEG', 'NAN'; value NULL unless finite).
std::optional<double> typedValue(sqlite3_stmt* s, int valueCol, int typeCol) {
    const std::string type = text(s, typeCol);
    if (type == "INF_POS") return INFINITY;
    if (type == "INF_NEG") return -INFINITY;
    if (type == "NAN") return NAN;
    if (sqlite3_column_type(s, valueCol) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(s, valueCol);
}

// Runs `sql`, calling `row` for each result row; false with SQLite's message.
template <class F>
bool query(sqlite3* db, const char* sql, F row, std::string* error) {
    Stmt st;
    if (sqlite3_prepare_v2(db, sql, -1, &st.s, nullptr) != SQLITE_OK) {
        *error = sqlite3_errmsg(db);
        return false;
    }
    int rc;
    while ((rc = sqlite3_step(st.s)) == SQLITE_ROW)
        row(st.s);
    if (rc != SQLITE_DONE) {
        *error = sqlite3_errmsg(db);
        return false;
    }
    return true;
}

std::string uriOf(const std::filesystem::path& path) {
    // file: URI with the characters SQLite's URI parser treats specially escaped.
    std::string out = "file:";
    for (unsigned char c : std::filesystem::absolute(path).string()) {
        if (c == '?' || c == '#' || c == '%' || c < 0x20) {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "?mode=ro";
}

}  // namespace

std::optional<std::vector<OptunaStudy>> readOptunaSqlite(const std::filesystem::path& path,
                                                         std::string* error) {
    const std::string where = path.string() + ": ";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        *error = where + "no such file";
        return std::nullopt;
    }
    Db db;
    if (sqlite3_open_v2(uriOf(path).c_str(), &db.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                        nullptr) != SQLITE_OK) {
        *error = where + "cannot open it as SQLite (" +
                 (db.db ? sqlite3_errmsg(db.db) : "out of memory") + ")";
        return std::nullopt;
    }
    sqlite3_busy_timeout(db.db, 2000);
    std::string err;
    // The schema first: an Optuna storage has version_info (schema_version, library_version).
    int version = -1;
    std::string library;
    bool ok = query(
        db.db, "SELECT schema_version, library_version FROM version_info",
        [&](sqlite3_stmt* s) {
            version = sqlite3_column_int(s, 0);
            library = text(s, 1);
        },
        &err);
    if (!ok) {
        *error = where + (err.find("no such table") != std::string::npos
                              ? "not an Optuna storage (no version_info table)"
                              : "not a readable SQLite database (" + err + ")");
        return std::nullopt;
    }
    if (version != 12) {
        *error = where + "Optuna storage of schema version " + std::to_string(version) +
                 " (Optuna " + library + "); this reader knows version 12 (Optuna 3.0–3.1)";
        return std::nullopt;
    }
    std::vector<OptunaStudy> studies;
    std::map<long long, std::size_t> studyIndex;
    std::map<long long, std::pair<std::size_t, std::size_t>> trialIndex;  // id -> (study, trial)
    auto fail = [&](const std::string& what) {
        *error = where + "cannot read the study's " + what + " (" + err + ")";
        return std::nullopt;
    };
    if (!query(
            db.db, "SELECT study_id, study_name FROM studies ORDER BY study_id",
            [&](sqlite3_stmt* s) {
                studyIndex[sqlite3_column_int64(s, 0)] = studies.size();
                OptunaStudy st;
                st.name = text(s, 1);
                studies.push_back(std::move(st));
            },
            &err))
        return fail("names");
    if (!query(
            db.db, "SELECT study_id, objective, direction FROM study_directions",
            [&](sqlite3_stmt* s) {
                const auto it = studyIndex.find(sqlite3_column_int64(s, 0));
                if (it == studyIndex.end()) return;
                OptunaStudy& st = studies[it->second];
                const int objective = sqlite3_column_int(s, 1);
                st.objectives = std::max(st.objectives, objective + 1);
                if (objective == 0) st.maximize = text(s, 2) == "MAXIMIZE";
            },
            &err))
        return fail("directions");
    if (!query(
            db.db, "SELECT trial_id, number, study_id, state FROM trials ORDER BY study_id, number",
            [&](sqlite3_stmt* s) {
                const auto it = studyIndex.find(sqlite3_column_int64(s, 2));
                if (it == studyIndex.end()) return;
                OptunaTrial t;
                t.number = sqlite3_column_int(s, 1);
                t.state = text(s, 3);
                auto& trials = studies[it->second].trials;
                trialIndex[sqlite3_column_int64(s, 0)] = {it->second, trials.size()};
                trials.push_back(std::move(t));
            },
            &err))
        return fail("trials");
    auto trialOf = [&](sqlite3_stmt* s) -> OptunaTrial* {
        const auto it = trialIndex.find(sqlite3_column_int64(s, 0));
        return it == trialIndex.end() ? nullptr
                                      : &studies[it->second.first].trials[it->second.second];
    };
    if (!query(
            db.db,
            "SELECT trial_id, param_name, param_value, distribution_json FROM trial_params "
            "ORDER BY param_id",
            [&](sqlite3_stmt* s) {
                if (OptunaTrial* t = trialOf(s))
                    t->params.emplace_back(text(s, 1),
                                           optunaParamText(sqlite3_column_double(s, 2), text(s, 3)));
            },
            &err))
        return fail("params");
    if (!query(
            db.db, "SELECT trial_id, value, value_type FROM trial_values WHERE objective = 0",
            [&](sqlite3_stmt* s) {
                if (OptunaTrial* t = trialOf(s)) t->value = typedValue(s, 1, 2);
            },
            &err))
        return fail("values");
    if (!query(
            db.db,
            "SELECT trial_id, intermediate_value, intermediate_value_type, step "
            "FROM trial_intermediate_values ORDER BY trial_id, step",
            [&](sqlite3_stmt* s) {
                OptunaTrial* t = trialOf(s);
                const auto v = typedValue(s, 1, 2);
                if (t) t->intermediate.emplace_back(sqlite3_column_int64(s, 3), v ? *v : NAN);
            },
            &err))
        return fail("intermediate values");
    if (!query(
            db.db, "SELECT trial_id, key, value_json FROM trial_user_attributes",
            [&](sqlite3_stmt* s) {
                OptunaTrial* t = trialOf(s);
                if (!t) return;
                auto v = nlohmann::json::parse(text(s, 2), nullptr, false);
                if (!v.is_discarded()) t->userAttrs[text(s, 1)] = std::move(v);
            },
            &err))
        return fail("user attributes");
    return studies;
}

}  // namespace ade
