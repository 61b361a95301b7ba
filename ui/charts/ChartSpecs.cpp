#include <QObject>

#include "ChartPanel.h"

namespace ade::ui {

namespace {
bool contains(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}
bool isLoss(const std::string& c) {
    return contains(c, "loss") || contains(c, "risk") || c == "rmse" || c == "rel_l2";
}
bool isNorm(const std::string& c) {
    return c.rfind("norm_", 0) == 0;
}
bool isManifold(const std::string& c) {
    return contains(c, "manifold") || contains(c, "imbalance") || contains(c, "distance");
}
bool isBookkeeping(const std::string& c) {
    return c == "iteration" || c == "time_s";
}
}  // namespace

std::vector<ChartSpec> defaultChartSpecs() {
    return {
        {QStringLiteral("loss"), QObject::tr("Loss and excess risk"), isLoss, true},
        {QStringLiteral("norms"), QObject::tr("Weight norms"), isNorm, false},
        {QStringLiteral("manifold"), QObject::tr("Manifold distance and imbalance"), isManifold,
         true},
        {QStringLiteral("other"), QObject::tr("Other metrics"),
         [](const std::string& c) {
             return !isBookkeeping(c) && !isLoss(c) && !isNorm(c) && !isManifold(c);
         },
         true},
    };
}

}  // namespace ade::ui
