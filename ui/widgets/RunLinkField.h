#pragma once

#include "ui/widgets/PathField.h"

namespace sahaj::ui {

// Where the volunteer names the run to join: a join link or a join file's URL typed or pasted, or a join
// file chosen. The same field, with the same words, in the wizard, the join dialog and the settings.
class RunLinkField : public PathField {
    Q_OBJECT
public:
    explicit RunLinkField(QWidget* parent = nullptr);
};

} // namespace sahaj::ui
