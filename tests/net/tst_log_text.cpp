// LogText: another peer's text made safe for a log line or the screen.
#include "core/net/LogText.h"

#include <QTest>

#include <string>

using sahaj::net::LogText;

class TestLogText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsPlainTextAndAnyScript() {
        QCOMPARE(LogText::of("volunteer-7"), QStringLiteral("volunteer-7"));
        const std::string bengali = "রহিম করিম"; // a Bengali user name
        QCOMPARE(LogText::of(bengali), QString::fromUtf8(bengali.c_str()));
        QCOMPARE(LogText::of("emoji \xF0\x9F\x98\x80"), QString::fromUtf8("emoji \xF0\x9F\x98\x80"));
    }

    void replacesWhatCouldForgeOrHideALine() {
        const QString replacement(QChar::ReplacementCharacter);
        // A line break that would start a forged log line, a terminal escape, a right-to-left override.
        QCOMPARE(LogText::of("a\nb"), "a" + replacement + "b");
        QCOMPARE(LogText::of("a\r\x1b[2Kb"), "a" + replacement + replacement + "[2Kb");
        QCOMPARE(LogText::of("abc\xE2\x80\xAE"
                             "txt.exe"),
                 "abc" + replacement + "txt.exe");
        QCOMPARE(LogText::of(std::string("a\0b", 3)), "a" + replacement + "b");
        QCOMPARE(LogText::of("a\xE2\x80\xA8"
                             "b"),
                 "a" + replacement + "b"); // line separator
        // Invalid UTF-8 decodes to replacement characters, never to raw bytes.
        QVERIFY(!LogText::of("\xff\xfe ok").contains(QChar(0xff)));
        QVERIFY(LogText::of("\xff\xfe ok").endsWith(" ok"));
    }

    void cutsLongText() {
        const std::string huge(1 << 20, 'x');
        const QString cut = LogText::of(huge, 10);
        QCOMPARE(cut, QString(10, 'x') + QChar(0x2026));
        QCOMPARE(LogText::of("exactly10!", 10), QStringLiteral("exactly10!"));
        QCOMPARE(LogText::utf8("abcdef", 3), std::string("abc\xE2\x80\xA6"));
    }

    // Ids and hashes in log lines: the first four bytes in hex, and no more than there is.
    void shortHexIsTheFirstEightDigits() {
        QCOMPARE(sahaj::net::LogText::shortHex(std::string("\x1a\x2b\x3c\x4d\x5e\x6f", 6)),
                 std::string("1a2b3c4d"));
        QCOMPARE(sahaj::net::LogText::shortHex(std::string("\xff", 1)), std::string("ff"));
        QCOMPARE(sahaj::net::LogText::shortHex({}), std::string());
    }
};

QTEST_GUILESS_MAIN(TestLogText)
#include "tst_log_text.moc"
