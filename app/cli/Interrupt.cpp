#include "Interrupt.h"

#include <csignal>

namespace ade {

namespace {

RunControl* gControl = nullptr;
volatile std::sig_atomic_t gInterrupted = 0;

void onSignal(int) {
    gInterrupted = 1;
    if (gControl) gControl->requestStopFromSignal();
}

}  // namespace

StopOnInterrupt::StopOnInterrupt(RunControl& control) {
    gControl = &control;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
}

StopOnInterrupt::~StopOnInterrupt() {
    gControl = nullptr;
}

bool interrupted() {
    return gInterrupted != 0;
}

}  // namespace ade
