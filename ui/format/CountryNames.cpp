#include "ui/format/CountryNames.h"

#include <QLocale>
#include <QRegularExpression>

#include <unicode/locid.h>
#include <unicode/unistr.h>

namespace sahaj::ui {

QString CountryNames::of(const QString& code) {
    static const QRegularExpression alpha2(QStringLiteral("^[A-Z]{2}$"));
    // ZZ is the CLDR's "unknown region": no country to name.
    if (!alpha2.match(code).hasMatch() || code == QLatin1String("ZZ"))
        return {};
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale display = icu::Locale::forLanguageTag(QLocale().bcp47Name().toStdString(), status);
    if (U_FAILURE(status))
        display = icu::Locale::getEnglish();
    icu::UnicodeString name;
    icu::Locale(nullptr, code.toLatin1().constData()).getDisplayCountry(display, name);
    // ICU gives back the code itself for a region it has no name for.
    const QString text = QString(reinterpret_cast<const QChar*>(name.getBuffer()), name.length());
    return text == code ? QString() : text;
}

} // namespace sahaj::ui
