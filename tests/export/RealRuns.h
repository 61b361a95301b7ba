#pragma once
// A small real Experiment A run (40 iterations), trained and added to a RunStore as a finished
// run, for the export tests.
#include <QString>

#include <string>

#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "config/Config.h"
#include "experiments/ExperimentRegistry.h"
#include "output/Session.h"
#include "training/Trainer.h"

inline void addRealRun(ade::ui::RunStore& store, const QString& name, const char* optimizer) {
    ade::Config c;
    c.setText("data.n", "16");
    c.setText("data.prompts", "4");
    c.setText("iterations", "40");
    c.setText("optimizer", optimizer);
    std::string err;
    auto t = ade::makeTrainer(c, &err);
    ade::Session s;
    s.runs.push_back(ade::sessionRunFrom(name.toStdString(), c, t->run()));
    ade::ui::addSessionToStore(s, store);
}
