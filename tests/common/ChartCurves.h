#pragma once
// What a live chart draws, for tests: its curves are not Qt Charts series but one graphics item
// of the chart (LineLayer), whose lines hold the decimated points in axis units.
#include <QChart>
#include <QChartView>

#include "charts/ChartPanel.h"
#include "charts/LineLayer.h"

namespace adetest {

inline ade::ui::LineLayer* lineLayerOf(QChart* c) {
    if (!c) return nullptr;
    for (QGraphicsItem* i : c->childItems())
        if (auto* l = dynamic_cast<ade::ui::LineLayer*>(i)) return l;
    return nullptr;
}

inline ade::ui::LineLayer* lineLayerOf(ade::ui::ChartPanel* p) {
    auto* view = p ? p->findChild<QChartView*>() : nullptr;
    return view ? lineLayerOf(view->chart()) : nullptr;
}

}  // namespace adetest
