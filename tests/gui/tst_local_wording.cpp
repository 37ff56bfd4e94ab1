// Words in the app's language: country names (the peer map, the settings' country list and the wizard said
// "Germany" to a volunteer who chose Bengali: Qt names countries in English only) and times of day (Bengali
// read "৭:৫৩ PM").
#include "ui/format/CountryNames.h"
#include "ui/format/Figures.h"

#include <QLocale>
#include <QtTest>

using sahaj::ui::CountryNames;
using sahaj::ui::Figures;

class TestLocalWording : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void namesACountryInTheAppsLanguage() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(CountryNames::of(QStringLiteral("DE")), QStringLiteral("Germany"));
        QCOMPARE(CountryNames::of(QStringLiteral("BD")), QStringLiteral("Bangladesh"));
        QLocale::setDefault(QLocale(QLocale::Bengali, QLocale::Bangladesh));
        QCOMPARE(CountryNames::of(QStringLiteral("DE")), QStringLiteral("জার্মানি"));
        QCOMPARE(CountryNames::of(QStringLiteral("BD")), QStringLiteral("বাংলাদেশ"));
        QCOMPARE(CountryNames::of(QStringLiteral("IN")), QStringLiteral("ভারত"));
        // A Bengali-speaking volunteer in India: the same language, the same names.
        QLocale::setDefault(QLocale(QLocale::Bengali, QLocale::India));
        QCOMPARE(CountryNames::of(QStringLiteral("DE")), QStringLiteral("জার্মানি"));
    }

    // What a peer's record may carry is checked before it is named: nothing for what is not a country.
    void namesNothingThatIsNotACountry() {
        QLocale::setDefault(QLocale(QLocale::Bengali, QLocale::Bangladesh));
        for (const char* code : {"", "D", "de", "DEU", "ZZ", "XX", "১২", "D\xC3\xA9"})
            QVERIFY2(CountryNames::of(QString::fromUtf8(code)).isEmpty(), code);
    }

    // A time of day: Bengali digits on a 24-hour clock, not English AM/PM markers; English as its locale
    // writes it.
    void writesATimeOfDayInOneLanguage() {
        const QTime evening(19, 53);
        QLocale::setDefault(QLocale(QLocale::Bengali, QLocale::Bangladesh));
        QCOMPARE(Figures::clock(evening), QStringLiteral("১৯:৫৩"));
        const QString both = Figures::dateAndClock(QDateTime(QDate(2026, 12, 5), evening));
        QVERIFY2(both.endsWith(QStringLiteral("১৯:৫৩")) && !both.contains(QLatin1String("PM")),
                 qPrintable(both));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(Figures::clock(evening), QLocale().toString(evening, QLocale::ShortFormat));
        QVERIFY2(Figures::clock(evening).contains(QLatin1String("PM")), qPrintable(Figures::clock(evening)));
    }
};

QTEST_GUILESS_MAIN(TestLocalWording)
#include "tst_local_wording.moc"
