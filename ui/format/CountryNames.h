#pragma once

#include <QString>

namespace sahaj::ui {

// A country's name in the app's language (QLocale(), which the app sets to the chosen one): "জার্মানি"
// in Bengali, "Germany" in English, from ICU's copy of the Unicode CLDR. Qt names countries only in
// English (QLocale::territoryToString), so a Bengali peer map, settings page and wizard said "Germany".
class CountryNames {
public:
    // `code`: ISO 3166-1 alpha-2 ("DE"). Empty for a code that is not two letters or that the CLDR does
    // not know: the caller says what it shows instead.
    static QString of(const QString& code);
};

} // namespace sahaj::ui
