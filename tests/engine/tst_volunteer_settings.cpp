// The volunteer's settings file: the defaults, every field read back as written, each contradiction
// refused by save() with its sentence (and the file left as it was), and garbage files (not INI, wrong
// types, values out of range, contradictions written by hand) loaded as defaults with each fallback named.
#include "core/engine/JoinRequest.h"
#include "core/engine/VolunteerSettings.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

using sahaj::engine::VolunteerSettings;
using sahaj::test::errorOf;
using sahaj::test::writeFile;

namespace {

QByteArray contentOf(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// Every field away from its default, strings with the characters INI files treat specially.
VolunteerSettings everyFieldSet() {
    VolunteerSettings s;
    s.firstRunDone = true;
    s.consentGiven = true;
    s.runLink = QStringLiteral("sahaj://join?run=bn,wiki;v=1#\"x\" = @y");
    s.user = QStringLiteral("রহিম");
    s.tokenFile = QStringLiteral("/home/rahim/tokens/sahaj token.bin");
    s.dataDir = QStringLiteral("C:\\Data\\shard 3\\[x]");
    s.runOrganiser = QString(64, QLatin1Char('e'));
    s.directoryUrl = QStringLiteral("https://runs.example.org/directory.json?lang=bn");
    s.directoryKey = QString(64, QLatin1Char('F'));
    s.cacheGiB = VolunteerSettings::kMaxCacheGiB;
    s.clientMode = true;
    s.device = QStringLiteral("cuda:1");
    s.shareCountry = true;
    s.country = QStringLiteral("BD");
    s.limits.computePercent = 37.5;
    s.limits.microBatch = 3;
    s.limits.maxUploadMbps = 0.1;
    s.limits.maxDownloadMbps = 12.345678901234567;
    s.dailyQuotaMB = 2048;
    s.pauseOnBattery = false;
    s.onlyWhenIdle = true;
    s.idleMinutes = 120;
    s.gpuWhileActive = true;
    s.scheduleEnabled = true;
    s.schedule.reset();
    for (int bit = 0; bit < 7 * 24; ++bit)
        s.schedule.set(bit, bit % 5 == 0 || bit % 7 == 3);
    s.schedule.set(0).set(7 * 24 - 1); // Monday 00:00 and Sunday 23:00, the two ends
    s.snoozeUntilMs = 1711843200123;
    s.userPaused = true;
    s.rejoinOnStart = true;
    s.startAtLogin = true;
    s.notifications = false;
    s.language = QStringLiteral("bn");
    return s;
}

struct Contradiction {
    const char* name;
    std::function<void(VolunteerSettings&)> make;
    QString sentence;
};

const std::vector<Contradiction>& contradictions() {
    static const std::vector<Contradiction> cases = {
        {"schedule allows no hour",
         [](VolunteerSettings& s) {
             s.scheduleEnabled = true;
             s.schedule.reset();
         },
         QStringLiteral("the weekly schedule is on but allows no hour: Sahaj could never compute; allow at "
                        "least one hour or switch the schedule off")},
        {"idle minutes 0",
         [](VolunteerSettings& s) {
             s.onlyWhenIdle = true;
             s.idleMinutes = 0;
         },
         QStringLiteral("the idle time must be between 1 and 120 minutes")},
        {"idle minutes 121",
         [](VolunteerSettings& s) {
             s.onlyWhenIdle = true;
             s.idleMinutes = 121;
         },
         QStringLiteral("the idle time must be between 1 and 120 minutes")},
        {"quota 49 MB", [](VolunteerSettings& s) { s.dailyQuotaMB = 49; },
         QStringLiteral("a daily transfer quota below 50 MB could never finish one averaging round (about 40 "
                        "MB): set at least 50 MB, or 0 for no quota")},
        {"quota negative", [](VolunteerSettings& s) { s.dailyQuotaMB = -1; },
         QStringLiteral("the daily transfer quota cannot be negative: set 0 for no quota")},
        {"country lower case", [](VolunteerSettings& s) { s.country = QStringLiteral("bd"); },
         QStringLiteral(
             "the country must be a two-letter ISO 3166 code in capitals, such as BD, or empty for "
             "the system's")},
        {"country three letters", [](VolunteerSettings& s) { s.country = QStringLiteral("BGD"); },
         QStringLiteral(
             "the country must be a two-letter ISO 3166 code in capitals, such as BD, or empty for "
             "the system's")},
        {"language fr", [](VolunteerSettings& s) { s.language = QStringLiteral("fr"); },
         QStringLiteral("the language must be English (en), Bengali (bn) or the system's")},
        {"client without upload",
         [](VolunteerSettings& s) {
             s.clientMode = true;
             s.limits.maxUploadMbps = 0.05;
         },
         QStringLiteral(
             "in client mode this peer sends its gradients through its own upload: a cap below 0.1 "
             "Mbit/s leaves it no upload; raise the upload cap or remove it")},
        {"device gpu", [](VolunteerSettings& s) { s.device = QStringLiteral("gpu"); },
         QStringLiteral("the device must be auto, cpu, cuda or cuda:N")},
        {"device cuda:x", [](VolunteerSettings& s) { s.device = QStringLiteral("cuda:x"); },
         QStringLiteral("the device must be auto, cpu, cuda or cuda:N")},
        {"compute 0 percent", [](VolunteerSettings& s) { s.limits.computePercent = 0.0; },
         QStringLiteral("the compute limit must be between 1 and 100 percent")},
        {"micro-batch 0", [](VolunteerSettings& s) { s.limits.microBatch = 0; },
         QStringLiteral("the micro-batch must be between 1 and 4096 samples")},
        {"download cap stalls", [](VolunteerSettings& s) { s.limits.maxDownloadMbps = 0.01; },
         QStringLiteral("a bandwidth cap below 0.1 Mbit/s would stall every round this peer joins: set at "
                        "least 0.1, or no cap")},
        {"snooze end negative", [](VolunteerSettings& s) { s.snoozeUntilMs = -5; },
         QStringLiteral("the snooze end is not a valid time")},
        {"cache 0 GiB", [](VolunteerSettings& s) { s.cacheGiB = 0; },
         QStringLiteral(
             "the disk space for downloaded data (the shard cache) must be between 1 and 10000 GiB")},
        {"cache 10001 GiB", [](VolunteerSettings& s) { s.cacheGiB = 10001; },
         QStringLiteral(
             "the disk space for downloaded data (the shard cache) must be between 1 and 10000 GiB")},
        {"run link too long", [](VolunteerSettings& s) { s.runLink = QString(4097, QLatin1Char('x')); },
         QStringLiteral("the run link is longer than 4096 characters")},
        {"organiser key short", [](VolunteerSettings& s) { s.runOrganiser = QStringLiteral("abc"); },
         QStringLiteral("the run's organiser key must be 64 hexadecimal digits")},
        {"directory on disk", [](VolunteerSettings& s) { s.directoryUrl = QStringLiteral("/etc/runs.json"); },
         QStringLiteral("the run directory's address must be https://host/path, or http:// on a loopback or "
                        "private address")},
        {"directory without key", [](VolunteerSettings& s) { s.directoryKey.clear(); },
         QStringLiteral("a run directory needs both its address and its key (64 hexadecimal digits), from "
                        "whoever keeps it")},
    };
    return cases;
}

} // namespace

class TestVolunteerSettings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaults() {
        const VolunteerSettings s;
        QVERIFY2(s.problems().isEmpty(), qPrintable(s.problems().join(QLatin1Char('\n'))));
        QVERIFY(!s.firstRunDone);
        QVERIFY(!s.consentGiven);
        QCOMPARE(s.device, QStringLiteral("auto"));
        QVERIFY(s.shareCountry);
        QVERIFY(s.country.isEmpty());
        QCOMPARE(s.limits, sahaj::engine::EngineLimits{});
        QCOMPARE(s.dailyQuotaMB, 0);
        // The cache's cap is the one a join request has when nothing sets it.
        QCOMPARE(s.cacheGiB, 20);
        QCOMPARE(std::int64_t(s.cacheGiB) << 30, sahaj::engine::JoinRequest{}.cacheCapBytes);
        QVERIFY(s.pauseOnBattery);
        QVERIFY(!s.onlyWhenIdle);
        QCOMPARE(s.idleMinutes, 5);
        QVERIFY(!s.scheduleEnabled);
        QVERIFY(s.schedule.all());
        QCOMPARE(s.snoozeUntilMs, 0);
        QVERIFY(!s.userPaused);
        QVERIFY(s.notifications);
        QVERIFY(s.language.isEmpty());

        // A missing file is the first run: the defaults, and nothing to report.
        QTemporaryDir dir;
        QStringList problems{QStringLiteral("stale")};
        QCOMPARE(VolunteerSettings::load(dir.filePath(QStringLiteral("missing.ini")), &problems), s);
        QVERIFY(problems.isEmpty());
    }

    void roundTripOfEveryField() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/folder/settings.ini"));
        const VolunteerSettings written = everyFieldSet();
        QVERIFY2(written.problems().isEmpty(), qPrintable(written.problems().join(QLatin1Char('\n'))));
        QVERIFY(!(written == VolunteerSettings{}));
        written.save(path);

        QStringList problems;
        const VolunteerSettings read = VolunteerSettings::load(path, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(read.schedule.to_string(), written.schedule.to_string());
        QCOMPARE(read.runLink, written.runLink);
        QCOMPARE(read.dataDir, written.dataDir);
        QCOMPARE(read.limits.maxDownloadMbps, written.limits.maxDownloadMbps);
        QVERIFY(read == written);

        // The defaults read back as defaults too, and saving again replaces the file.
        const VolunteerSettings defaults;
        defaults.save(path);
        QCOMPARE(VolunteerSettings::load(path, &problems), defaults);
        QVERIFY(problems.isEmpty());
        QVERIFY(!QFile::exists(path + QStringLiteral(".new")));
    }

    // The schedule keeps each hour of the week apart: one bit set at a time reads back as that bit alone.
    // The files differ in one digit and have the same size, saved and read back many times a millisecond:
    // a load must never see the file it replaced.
    void scheduleBits() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        for (int bit = 0; bit < 7 * 24; ++bit) {
            VolunteerSettings s;
            s.scheduleEnabled = true;
            s.schedule.reset().set(bit);
            s.save(path);
            const VolunteerSettings read = VolunteerSettings::load(path);
            QCOMPARE(read.schedule.count(), std::size_t(1));
            QVERIFY2(read.schedule.test(bit), qPrintable(QString::number(bit)));
        }
        // The file names the days and shows one digit per hour, for a person who reads it.
        const QByteArray text = contentOf(path);
        QVERIFY(text.contains("sunday=000000000000000000000001"));
        QVERIFY(text.contains("monday=000000000000000000000000"));
    }

    void contradictionRefused_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < static_cast<int>(contradictions().size()); ++i)
            QTest::newRow(contradictions()[i].name) << i;
    }

    void contradictionRefused() {
        QFETCH(int, index);
        const Contradiction& c = contradictions()[index];
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        VolunteerSettings good = everyFieldSet();
        good.save(path);
        const QByteArray before = contentOf(path);

        VolunteerSettings bad = good;
        c.make(bad);
        const QStringList problems = bad.problems();
        QCOMPARE(problems, QStringList{c.sentence});
        const QString error = errorOf([&] { bad.save(path); });
        QVERIFY2(error.contains(c.sentence), qPrintable(error));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.save(path));
        // Refused before anything is written: the old file is intact and no temporary is left.
        QCOMPARE(contentOf(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral(".new")));
        QCOMPARE(VolunteerSettings::load(path), good);
    }

    // Values that only look like the contradictions are accepted.
    void nearContradictionsAccepted() {
        const std::vector<std::pair<const char*, std::function<void(VolunteerSettings&)>>> cases = {
            {"quota 0 (none)", [](VolunteerSettings& s) { s.dailyQuotaMB = 0; }},
            {"quota 50 MB", [](VolunteerSettings& s) { s.dailyQuotaMB = 50; }},
            {"country not shared",
             [](VolunteerSettings& s) {
                 s.shareCountry = false;
                 s.country = QStringLiteral("bd");
             }},
            {"idle rule off",
             [](VolunteerSettings& s) {
                 s.onlyWhenIdle = false;
                 s.idleMinutes = 0;
             }},
            {"idle 1 minute",
             [](VolunteerSettings& s) {
                 s.onlyWhenIdle = true;
                 s.idleMinutes = 1;
             }},
            {"schedule off and empty",
             [](VolunteerSettings& s) {
                 s.scheduleEnabled = false;
                 s.schedule.reset();
             }},
            {"client without cap",
             [](VolunteerSettings& s) {
                 s.clientMode = true;
                 s.limits.maxUploadMbps = 0.0;
             }},
            {"cuda", [](VolunteerSettings& s) { s.device = QStringLiteral("cuda"); }},
            {"language en", [](VolunteerSettings& s) { s.language = QStringLiteral("en"); }},
            {"cache 1 GiB", [](VolunteerSettings& s) { s.cacheGiB = 1; }},
        };
        QTemporaryDir dir;
        for (const auto& [name, make] : cases) {
            VolunteerSettings s;
            make(s);
            QVERIFY2(s.problems().isEmpty(), name);
            QVERIFY2(errorOf([&] { s.save(dir.filePath(QStringLiteral("s.ini"))); }).isEmpty(), name);
        }
    }

    void twoContradictionsTwoSentences() {
        VolunteerSettings s;
        s.device = QStringLiteral("tpu");
        s.dailyQuotaMB = 10;
        QCOMPARE(s.problems().size(), 2);
    }

    void fileNotIni() {
        QTemporaryDir dir;
        const QString binary = writeFile(dir, QStringLiteral("binary.ini"),
                                         QByteArray("\x00\x01\x02\xff\xfe garbage\n[[[\n=\n", 20));
        QStringList problems;
        QCOMPARE(VolunteerSettings::load(binary, &problems), VolunteerSettings{});
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems[0].contains(QStringLiteral("is not an INI file")), qPrintable(problems[0]));

        const QString json =
            writeFile(dir, QStringLiteral("json.ini"), "{\"limits\": {\"microBatch\": 4}}\n");
        QCOMPARE(VolunteerSettings::load(json, &problems), VolunteerSettings{});
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems[0].contains(QStringLiteral("holds no settings")), qPrintable(problems[0]));

        // A folder where the file should be.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.ini")));
        QCOMPARE(VolunteerSettings::load(dir.filePath(QStringLiteral("folder.ini")), &problems),
                 VolunteerSettings{});
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems[0].contains(QStringLiteral("is not a file")), qPrintable(problems[0]));

        // An empty file is just an empty one.
        const QString empty = writeFile(dir, QStringLiteral("empty.ini"), "");
        QCOMPARE(VolunteerSettings::load(empty, &problems), VolunteerSettings{});
        QVERIFY(problems.isEmpty());
    }

    void garbageValues() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("settings.ini"),
                                       "[join]\n"
                                       "runLink=sahaj://kept\n"
                                       "device=tpu\n"
                                       "clientMode=maybe\n"
                                       "cacheGiB=0\n"
                                       "[limits]\n"
                                       "microBatch=a,b\n"
                                       "computePercent=abc\n"
                                       "maxUploadMbps=0.01\n"
                                       "maxDownloadMbps=nan\n"
                                       "dailyQuotaMB=-5\n"
                                       "[pause]\n"
                                       "idleMinutes=999\n"
                                       "gpuWhileActive=often\n"
                                       "onBattery=false\n"
                                       "snoozeUntilMs=-1\n"
                                       "userPaused=@Variant(\\0\\0\\0\\x1\\x1)\n"
                                       "[schedule]\n"
                                       "monday=0101\n"
                                       "tuesday=111111111111111111111111111\n"
                                       "[desktop]\n"
                                       "language=fr\n"
                                       "unknownKey=ignored\n");
        QStringList problems;
        const VolunteerSettings read = VolunteerSettings::load(path, &problems);
        VolunteerSettings expected;
        expected.runLink = QStringLiteral("sahaj://kept");
        expected.pauseOnBattery = false;
        QCOMPARE(read, expected);
        const QStringList named = {
            QStringLiteral("join/device"),
            QStringLiteral("join/clientMode"),
            QStringLiteral("join/cacheGiB"),
            QStringLiteral("limits/microBatch"),
            QStringLiteral("limits/computePercent"),
            QStringLiteral("limits/maxUploadMbps"),
            QStringLiteral("limits/maxDownloadMbps"),
            QStringLiteral("limits/dailyQuotaMB"),
            QStringLiteral("pause/idleMinutes"),
            QStringLiteral("pause/gpuWhileActive"),
            QStringLiteral("pause/snoozeUntilMs"),
            QStringLiteral("pause/userPaused"),
            QStringLiteral("schedule/monday"),
            QStringLiteral("schedule/tuesday"),
            QStringLiteral("desktop/language"),
        };
        QCOMPARE(problems.size(), named.size());
        for (const QString& key : named) {
            const bool found = std::any_of(problems.cbegin(), problems.cend(), [&](const QString& p) {
                return p.startsWith(key + QLatin1Char(':'));
            });
            QVERIFY2(found, qPrintable(key + QStringLiteral(" not reported in: ") +
                                       problems.join(QLatin1Char('\n'))));
        }
        QVERIFY(read.problems().isEmpty());
    }

    // The cache's cap in the file: read back as written, and a value out of range (or not a whole number)
    // is refused by name, keeping the default.
    void cacheCapInFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        VolunteerSettings written;
        written.cacheGiB = 150;
        written.save(path);
        QVERIFY(contentOf(path).contains("cacheGiB=150"));
        QCOMPARE(VolunteerSettings::load(path).cacheGiB, 150);

        const std::vector<std::pair<QByteArray, QString>> cases = {
            {"0", QStringLiteral("join/cacheGiB: \"0\" is outside 1..10000; the default (20) is used")},
            {"10001",
             QStringLiteral("join/cacheGiB: \"10001\" is outside 1..10000; the default (20) is used")},
            {"-3", QStringLiteral("join/cacheGiB: \"-3\" is outside 1..10000; the default (20) is used")},
            {"2.5", QStringLiteral("join/cacheGiB: \"2.5\" is not a whole number; the default (20) is used")},
        };
        for (const auto& [value, sentence] : cases) {
            const QString bad = writeFile(dir, QStringLiteral("bad.ini"), "[join]\ncacheGiB=" + value + "\n");
            QStringList problems;
            QCOMPARE(VolunteerSettings::load(bad, &problems).cacheGiB, 20);
            QCOMPARE(problems, QStringList{sentence});
        }
    }

    // Each value fine on its own, together a contradiction: undone to a default that can be saved again.
    void contradictionsInFile() {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, QStringLiteral("settings.ini"),
                      "[join]\nshareCountry=true\ncountry=xx\n"
                      "[limits]\ndailyQuotaMB=10\n"
                      "[schedule]\nenabled=true\n"
                      "monday=000000000000000000000000\ntuesday=000000000000000000000000\n"
                      "wednesday=000000000000000000000000\nthursday=000000000000000000000000\n"
                      "friday=000000000000000000000000\nsaturday=000000000000000000000000\n"
                      "sunday=000000000000000000000000\n");
        QStringList problems;
        const VolunteerSettings read = VolunteerSettings::load(path, &problems);
        QVERIFY(!read.scheduleEnabled);
        QVERIFY(read.schedule.none());
        QCOMPARE(read.dailyQuotaMB, 0);
        QVERIFY(read.country.isEmpty());
        QCOMPARE(problems.size(), 3);
        QVERIFY(read.problems().isEmpty());
        QVERIFY(errorOf([&] { read.save(path); }).isEmpty());
    }

    void saveAtomic() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        VolunteerSettings first;
        first.runLink = QStringLiteral("sahaj://first");
        first.save(path);
        // A temporary left by a crash mid-save is neither read nor merged into the next save.
        writeFile(dir, QStringLiteral("settings.ini.new"), "[join]\nrunLink=sahaj://crashed\nstaleKey=1\n");
        VolunteerSettings second;
        second.runLink = QStringLiteral("sahaj://second");
        QCOMPARE(VolunteerSettings::load(path).runLink, first.runLink);
        second.save(path);
        QCOMPARE(VolunteerSettings::load(path), second);
        QVERIFY(!contentOf(path).contains("staleKey"));
        QVERIFY(!QFile::exists(path + QStringLiteral(".new")));

        // A path that cannot be a folder: the save fails loudly and the old file stays.
        const QString blocked =
            writeFile(dir, QStringLiteral("plain-file"), "x") + QStringLiteral("/settings.ini");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, second.save(blocked));
        QCOMPARE(VolunteerSettings::load(path), second);
    }
};

QTEST_GUILESS_MAIN(TestVolunteerSettings)
#include "tst_volunteer_settings.moc"
