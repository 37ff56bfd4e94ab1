#include "core/engine/VolunteerSettings.h"

#include "core/engine/JoinRequest.h"
#include "core/run/ManifestSyntax.h"
#include "core/security/PeerId.h"
#include "core/store/LedgerLimits.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryFile>

#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <system_error>

namespace sahaj::engine {

namespace {

// A sahajBERT averaging round moves about 40 MB each way: a smaller daily quota could never finish one.
constexpr qint64 kMinDailyQuotaMB = 50;
constexpr qint64 kMaxDailyQuotaMB = qint64(1) << 40;
constexpr int kMinIdleMinutes = 1;
constexpr int kMaxIdleMinutes = 120;
// Paths, links and names longer than this are not something a person typed.
constexpr qsizetype kMaxTextLength = 4096;
// A settings file is a few kilobytes; anything near this is not one.
constexpr qint64 kMaxFileBytes = 1024 * 1024;

// The cache cap's key, named once so that load and save cannot disagree on it.
constexpr const char* kCacheGiBKey = "join/cacheGiB";

constexpr const char* kDayKeys[7] = {"monday", "tuesday",  "wednesday", "thursday",
                                     "friday", "saturday", "sunday"};

bool isCountryCode(const QString& text) {
    static const QRegularExpression code(QStringLiteral("^[A-Z]{2}$"));
    return code.match(text).hasMatch();
}

// An Ed25519 public key as 64 hexadecimal digits (an organiser's, a run directory's), or nothing.
bool isKeyOrEmpty(const QString& text) {
    return text.isEmpty() || security::PeerId::isHex(text);
}

bool isLanguage(const QString& text) {
    return text.isEmpty() || text == QLatin1String("en") || text == QLatin1String("bn");
}

QString scheduleDayText(const VolunteerSettings::WeeklyHours& schedule, int day) {
    QString text(24, QLatin1Char('0'));
    for (int hour = 0; hour < 24; ++hour)
        if (schedule.test(day * 24 + hour))
            text[hour] = QLatin1Char('1');
    return text;
}

// One sentence per problem of the text fields, which only load and save bound.
void checkTextLengths(const VolunteerSettings& s, QStringList& problems) {
    const std::pair<const QString*, const char*> fields[] = {
        {&s.runLink, QT_TRANSLATE_NOOP("sahaj::engine::VolunteerSettings", "the run link")},
        {&s.user, QT_TRANSLATE_NOOP("sahaj::engine::VolunteerSettings", "the user name")},
        {&s.tokenFile, QT_TRANSLATE_NOOP("sahaj::engine::VolunteerSettings", "the token file")},
        {&s.directoryUrl,
         QT_TRANSLATE_NOOP("sahaj::engine::VolunteerSettings", "the run directory's address")},
        {&s.dataDir, QT_TRANSLATE_NOOP("sahaj::engine::VolunteerSettings", "the data folder")},
    };
    for (const auto& [text, name] : fields)
        if (text->size() > kMaxTextLength)
            problems << VolunteerSettings::tr("%1 is longer than %2 characters")
                            .arg(VolunteerSettings::tr(name))
                            .arg(kMaxTextLength);
}

// Reads typed values out of the INI file. A key that is absent keeps its default silently (an older file);
// a key whose value does not parse or is out of range keeps its default and is reported.
class IniReader {
public:
    IniReader(QSettings& ini, QStringList& problems) : ini_(ini), problems_(problems) {}

    void flag(const QString& key, bool& field) {
        QString text;
        if (!raw(key, text))
            return;
        const QString value = text.trimmed().toLower();
        if (value == QLatin1String("true") || value == QLatin1String("1"))
            field = true;
        else if (value == QLatin1String("false") || value == QLatin1String("0"))
            field = false;
        else
            fallBack(key, text, VolunteerSettings::tr("is not true or false"),
                     field ? QStringLiteral("true") : QStringLiteral("false"));
    }

    void integer(const QString& key, qint64 min, qint64 max, qint64& field) {
        QString text;
        if (!raw(key, text))
            return;
        bool ok = false;
        const qint64 value = text.trimmed().toLongLong(&ok);
        if (!ok)
            fallBack(key, text, VolunteerSettings::tr("is not a whole number"), QString::number(field));
        else if (value < min || value > max)
            fallBack(key, text, VolunteerSettings::tr("is outside %1..%2").arg(min).arg(max),
                     QString::number(field));
        else
            field = value;
    }

    void integer(const QString& key, int min, int max, int& field) {
        qint64 value = field;
        integer(key, min, max, value);
        field = static_cast<int>(value);
    }

    // `problem` says what is wrong with a parsed value, empty when it is acceptable.
    void real(const QString& key, const std::function<QString(double)>& problem, double& field) {
        QString text;
        if (!raw(key, text))
            return;
        bool ok = false;
        const double value = text.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(value))
            fallBack(key, text, VolunteerSettings::tr("is not a number"), QString::number(field));
        else if (const QString why = problem(value); !why.isEmpty())
            fallBack(key, text, why, QString::number(field));
        else
            field = value;
    }

    void text(const QString& key, const std::function<bool(const QString&)>& acceptable, QString& field) {
        QString value;
        if (!raw(key, value))
            return;
        if (value.size() > kMaxTextLength)
            fallBack(key, value.left(40) + QStringLiteral("…"),
                     VolunteerSettings::tr("is longer than %1 characters").arg(kMaxTextLength), field);
        else if (!acceptable(value))
            fallBack(key, value, VolunteerSettings::tr("is not an accepted value"), field);
        else
            field = value;
    }

    void text(const QString& key, QString& field) {
        text(
            key, [](const QString&) { return true; }, field);
    }

    void day(const QString& key, int day, VolunteerSettings::WeeklyHours& schedule) {
        QString text;
        if (!raw(key, text))
            return;
        static const QRegularExpression hours(QStringLiteral("^[01]{24}$"));
        const QString value = text.trimmed();
        if (!hours.match(value).hasMatch()) {
            fallBack(key, text, VolunteerSettings::tr("is not 24 digits 0 or 1 (one per hour)"),
                     scheduleDayText(schedule, day));
            return;
        }
        for (int hour = 0; hour < 24; ++hour)
            schedule.set(day * 24 + hour, value[hour] == QLatin1Char('1'));
    }

private:
    // False when the key is absent or does not hold a single text value (a list, a serialized variant).
    bool raw(const QString& key, QString& text) {
        if (!ini_.contains(key))
            return false;
        const QVariant value = ini_.value(key);
        if (value.typeId() != QMetaType::QString) {
            problems_ << VolunteerSettings::tr(
                             "%1: not a single value (a list or an encoded object); the default is used")
                             .arg(key);
            return false;
        }
        text = value.toString();
        return true;
    }

    void fallBack(const QString& key, const QString& text, const QString& why, const QString& kept) {
        problems_
            << VolunteerSettings::tr("%1: \"%2\" %3; the default (%4) is used").arg(key, text, why, kept);
    }

    QSettings& ini_;
    QStringList& problems_;
};

// Each value has passed its own check at load; these are the combinations that contradict each other,
// undone to the default that does not, so that loaded settings can always be saved again.
void undoContradictions(VolunteerSettings& s, QStringList& problems) {
    if (s.scheduleEnabled && s.schedule.none()) {
        s.scheduleEnabled = false;
        problems << VolunteerSettings::tr("the weekly schedule allows no hour: it is switched off");
    }
    if (s.dailyQuotaMB > 0 && s.dailyQuotaMB < kMinDailyQuotaMB) {
        s.dailyQuotaMB = 0;
        problems << VolunteerSettings::tr("the daily quota was below %1 MB: it is switched off")
                        .arg(kMinDailyQuotaMB);
    }
    if (!s.shareCountry)
        return;
    if (!s.country.isEmpty() && !isCountryCode(s.country)) {
        s.country.clear();
        problems << VolunteerSettings::tr("the country was not a two-letter code: the system's is used");
    }
}

// The file's bytes; nullopt when there is nothing to read: no file (the first run, nothing to report) or one
// that cannot be a settings file.
std::optional<QByteArray> readSettingsFile(const QString& path, QStringList& problems) {
    const QFileInfo info(path);
    if (!info.exists())
        return std::nullopt;
    if (!info.isFile()) {
        problems << VolunteerSettings::tr("%1 is not a file; the default settings are used").arg(path);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        problems << VolunteerSettings::tr("%1 cannot be read (%2); the default settings are used")
                        .arg(path, file.errorString());
        return std::nullopt;
    }
    QByteArray bytes = file.read(kMaxFileBytes + 1);
    if (bytes.size() > kMaxFileBytes) {
        problems << VolunteerSettings::tr(
                        "%1 is larger than any settings file (%2 bytes); the default settings are used")
                        .arg(path)
                        .arg(kMaxFileBytes);
        return std::nullopt;
    }
    return bytes;
}

// Every value the file holds, each checked on its own.
void readValues(QSettings& ini, VolunteerSettings& s, QStringList& problems) {
    IniReader read(ini, problems);
    read.flag(QStringLiteral("wizard/firstRunDone"), s.firstRunDone);
    read.flag(QStringLiteral("wizard/consentGiven"), s.consentGiven);

    read.text(QStringLiteral("join/runLink"), s.runLink);
    read.text(QStringLiteral("join/user"), s.user);
    read.text(QStringLiteral("join/tokenFile"), s.tokenFile);
    read.text(QStringLiteral("join/runOrganiser"), isKeyOrEmpty, s.runOrganiser);
    read.text(QStringLiteral("directory/url"), s.directoryUrl);
    read.text(QStringLiteral("directory/key"), isKeyOrEmpty, s.directoryKey);
    read.text(QStringLiteral("join/dataDir"), s.dataDir);
    read.integer(QLatin1String(kCacheGiBKey), VolunteerSettings::kMinCacheGiB,
                 VolunteerSettings::kMaxCacheGiB, s.cacheGiB);
    read.flag(QStringLiteral("join/clientMode"), s.clientMode);
    read.text(QStringLiteral("join/device"), JoinRequest::isDeviceName, s.device);
    read.flag(QStringLiteral("join/shareCountry"), s.shareCountry);
    // Checked with shareCountry below: an unshared country is never used.
    read.text(QStringLiteral("join/country"), s.country);
    read.flag(QStringLiteral("join/rejoinOnStart"), s.rejoinOnStart);

    // Each limit alone against EngineLimits' own rule, the others at their defaults.
    const auto limitProblem = [](auto set) {
        return [set](double value) {
            engine::EngineLimits one;
            set(one, value);
            return one.problem();
        };
    };
    read.real(QStringLiteral("limits/computePercent"),
              limitProblem([](engine::EngineLimits& l, double v) { l.computePercent = v; }),
              s.limits.computePercent);
    read.integer(QStringLiteral("limits/microBatch"), 1, engine::EngineLimits::kMaxMicroBatch,
                 s.limits.microBatch);
    read.real(QStringLiteral("limits/maxUploadMbps"),
              limitProblem([](engine::EngineLimits& l, double v) { l.maxUploadMbps = v; }),
              s.limits.maxUploadMbps);
    read.real(QStringLiteral("limits/maxDownloadMbps"),
              limitProblem([](engine::EngineLimits& l, double v) { l.maxDownloadMbps = v; }),
              s.limits.maxDownloadMbps);
    read.integer(QStringLiteral("limits/dailyQuotaMB"), 0, kMaxDailyQuotaMB, s.dailyQuotaMB);

    read.flag(QStringLiteral("pause/onBattery"), s.pauseOnBattery);
    read.flag(QStringLiteral("pause/onlyWhenIdle"), s.onlyWhenIdle);
    read.integer(QStringLiteral("pause/idleMinutes"), kMinIdleMinutes, kMaxIdleMinutes, s.idleMinutes);
    read.flag(QStringLiteral("pause/gpuWhileActive"), s.gpuWhileActive);
    read.integer(QStringLiteral("pause/snoozeUntilMs"), 0, store::LedgerLimits::kMaxTimeMs, s.snoozeUntilMs);
    read.flag(QStringLiteral("pause/userPaused"), s.userPaused);

    read.flag(QStringLiteral("schedule/enabled"), s.scheduleEnabled);
    for (int day = 0; day < 7; ++day)
        read.day(QStringLiteral("schedule/") + QLatin1String(kDayKeys[day]), day, s.schedule);

    read.flag(QStringLiteral("desktop/startAtLogin"), s.startAtLogin);
    read.flag(QStringLiteral("desktop/notifications"), s.notifications);
    read.text(QStringLiteral("desktop/language"), isLanguage, s.language);
}

} // namespace

void VolunteerSettings::chooseRun(const QString& link, const QString& organiser) {
    if (link != runLink || !organiser.isEmpty())
        runOrganiser = organiser;
    runLink = link;
}

QStringList VolunteerSettings::problems() const {
    QStringList found;
    if (scheduleEnabled && schedule.none())
        found << tr("the weekly schedule is on but allows no hour: Sahaj could never compute; allow at least "
                    "one hour or switch the schedule off");
    if (onlyWhenIdle && (idleMinutes < kMinIdleMinutes || idleMinutes > kMaxIdleMinutes))
        found << tr("the idle time must be between %1 and %2 minutes")
                     .arg(kMinIdleMinutes)
                     .arg(kMaxIdleMinutes);
    if (dailyQuotaMB < 0)
        found << tr("the daily transfer quota cannot be negative: set 0 for no quota");
    else if (dailyQuotaMB > 0 && dailyQuotaMB < kMinDailyQuotaMB)
        found
            << tr("a daily transfer quota below %1 MB could never finish one averaging round (about 40 MB): "
                  "set at least %1 MB, or 0 for no quota")
                   .arg(kMinDailyQuotaMB);
    else if (dailyQuotaMB > kMaxDailyQuotaMB)
        found << tr("the daily transfer quota is larger than any connection could move: set 0 for no quota");
    if (cacheGiB < kMinCacheGiB || cacheGiB > kMaxCacheGiB)
        found << tr("the disk space for downloaded data (the shard cache) must be between %1 and %2 GiB")
                     .arg(kMinCacheGiB)
                     .arg(kMaxCacheGiB);
    if (shareCountry && !country.isEmpty() && !isCountryCode(country))
        found << tr(
            "the country must be a two-letter ISO 3166 code in capitals, such as BD, or empty for the "
            "system's");
    if (!isLanguage(language))
        found << tr("the language must be English (en), Bengali (bn) or the system's");
    if (!JoinRequest::isDeviceName(device))
        found << tr("the device must be auto, cpu, cuda or cuda:N");
    if (!isKeyOrEmpty(runOrganiser))
        found << tr("the run's organiser key must be 64 hexadecimal digits");
    if (!directoryUrl.isEmpty() && !run::ManifestSyntax::isRemoteUrl(directoryUrl))
        found << tr("the run directory's address must be https://host/path, or http:// on a loopback or "
                    "private address");
    if (!isKeyOrEmpty(directoryKey) || directoryKey.isEmpty() != directoryUrl.isEmpty())
        found << tr("a run directory needs both its address and its key (64 hexadecimal digits), from "
                    "whoever keeps it");
    if (snoozeUntilMs < 0 || snoozeUntilMs > store::LedgerLimits::kMaxTimeMs)
        found << tr("the snooze end is not a valid time");
    checkTextLengths(*this, found);

    // A client connects out only and sends its gradients over its own connections: an upload cap that
    // stalls every round leaves it nothing to contribute. EngineLimits refuses such a cap for every peer;
    // a client gets the sentence that names its case, and the rest of the limits are checked as usual.
    engine::EngineLimits rest = limits;
    if (clientMode && limits.maxUploadMbps > 0.0 && limits.maxUploadMbps < 0.1) {
        found << tr(
            "in client mode this peer sends its gradients through its own upload: a cap below 0.1 Mbit/s "
            "leaves it no upload; raise the upload cap or remove it");
        rest.maxUploadMbps = 0.0;
    }
    if (const QString problem = rest.problem(); !problem.isEmpty())
        found << problem;
    return found;
}

VolunteerSettings VolunteerSettings::load(const QString& path, QStringList* loadProblems) {
    QStringList problems;
    VolunteerSettings s;
    // QSettings keeps a process-wide cache of the files it parsed, trusted while a file's size and
    // modification time (to the millisecond) stay the same: a file replaced by one of the same size within
    // the same millisecond would read as the old one. A private copy under a fresh name is always parsed.
    const std::optional<QByteArray> bytes = readSettingsFile(path, problems);
    QTemporaryFile copy(QDir::tempPath() + QStringLiteral("/sahaj-settings-XXXXXX.ini"));
    if (bytes && (!copy.open() || copy.write(*bytes) != bytes->size() || !copy.flush())) {
        problems << tr("%1 cannot be read (no room for a temporary copy: %2); the default settings are used")
                        .arg(path, copy.errorString());
    } else if (bytes) {
        QSettings ini(copy.fileName(), QSettings::IniFormat);
        if (ini.status() != QSettings::NoError) {
            problems << tr("%1 is not an INI file; the default settings are used").arg(path);
        } else if (ini.allKeys().isEmpty() && !bytes->trimmed().isEmpty()) {
            problems << tr("%1 holds no settings; the default settings are used").arg(path);
        } else {
            readValues(ini, s, problems);
            undoContradictions(s, problems);
            // Should a combination slip past the repairs above, the whole file gives way to the defaults:
            // settings that cannot be saved again would leave the dialog stuck.
            if (const QStringList left = s.problems(); !left.isEmpty()) {
                problems << tr("the settings still contradict each other (%1); the default settings are used")
                                .arg(left.join(QLatin1Char(' ')));
                s = VolunteerSettings{};
            }
        }
    }
    if (loadProblems)
        *loadProblems = problems;
    return s;
}

void VolunteerSettings::save(const QString& path) const {
    if (const QStringList found = problems(); !found.isEmpty())
        throw std::invalid_argument(
            QStringLiteral("settings refused: %1").arg(found.join(QLatin1Char(' '))).toStdString());

    const QFileInfo target(path);
    if (!QDir().mkpath(target.absolutePath()))
        throw std::runtime_error(
            QStringLiteral("cannot create the folder %1").arg(target.absolutePath()).toStdString());
    // QSettings writes only files it names: write a whole new file beside the old one, then rename it over
    // the old one, so that a crash or a full disk leaves either the old settings or the new, never half.
    const QString temporary = path + QStringLiteral(".new");
    QFile::remove(temporary);
    {
        QSettings ini(temporary, QSettings::IniFormat);
        const auto flag = [](bool value) { return value ? QStringLiteral("true") : QStringLiteral("false"); };
        const auto real = [](double value) {
            return QString::number(value, 'g', QLocale::FloatingPointShortest);
        };
        ini.setValue(QStringLiteral("wizard/firstRunDone"), flag(firstRunDone));
        ini.setValue(QStringLiteral("wizard/consentGiven"), flag(consentGiven));

        ini.setValue(QStringLiteral("join/runLink"), runLink);
        ini.setValue(QStringLiteral("join/user"), user);
        ini.setValue(QStringLiteral("join/tokenFile"), tokenFile);
        ini.setValue(QStringLiteral("join/runOrganiser"), runOrganiser);
        ini.setValue(QStringLiteral("directory/url"), directoryUrl);
        ini.setValue(QStringLiteral("directory/key"), directoryKey);
        ini.setValue(QStringLiteral("join/dataDir"), dataDir);
        ini.setValue(QLatin1String(kCacheGiBKey), QString::number(cacheGiB));
        ini.setValue(QStringLiteral("join/clientMode"), flag(clientMode));
        ini.setValue(QStringLiteral("join/device"), device);
        ini.setValue(QStringLiteral("join/shareCountry"), flag(shareCountry));
        ini.setValue(QStringLiteral("join/country"), country);
        ini.setValue(QStringLiteral("join/rejoinOnStart"), flag(rejoinOnStart));

        ini.setValue(QStringLiteral("limits/computePercent"), real(limits.computePercent));
        ini.setValue(QStringLiteral("limits/microBatch"), QString::number(limits.microBatch));
        ini.setValue(QStringLiteral("limits/maxUploadMbps"), real(limits.maxUploadMbps));
        ini.setValue(QStringLiteral("limits/maxDownloadMbps"), real(limits.maxDownloadMbps));
        ini.setValue(QStringLiteral("limits/dailyQuotaMB"), QString::number(dailyQuotaMB));

        ini.setValue(QStringLiteral("pause/onBattery"), flag(pauseOnBattery));
        ini.setValue(QStringLiteral("pause/onlyWhenIdle"), flag(onlyWhenIdle));
        ini.setValue(QStringLiteral("pause/idleMinutes"), QString::number(idleMinutes));
        ini.setValue(QStringLiteral("pause/gpuWhileActive"), flag(gpuWhileActive));
        ini.setValue(QStringLiteral("pause/snoozeUntilMs"), QString::number(snoozeUntilMs));
        ini.setValue(QStringLiteral("pause/userPaused"), flag(userPaused));

        ini.setValue(QStringLiteral("schedule/enabled"), flag(scheduleEnabled));
        for (int day = 0; day < 7; ++day)
            ini.setValue(QStringLiteral("schedule/") + QLatin1String(kDayKeys[day]),
                         scheduleDayText(schedule, day));

        ini.setValue(QStringLiteral("desktop/startAtLogin"), flag(startAtLogin));
        ini.setValue(QStringLiteral("desktop/notifications"), flag(notifications));
        ini.setValue(QStringLiteral("desktop/language"), language);

        ini.sync();
        if (ini.status() != QSettings::NoError) {
            QFile::remove(temporary);
            throw std::runtime_error(
                QStringLiteral("cannot write the settings to %1").arg(temporary).toStdString());
        }
    }
    // rename() replaces the target in one step (POSIX rename, MoveFileEx with REPLACE_EXISTING).
    std::error_code error;
    std::filesystem::rename(QFile::encodeName(temporary).toStdString(), QFile::encodeName(path).toStdString(),
                            error);
    if (error) {
        QFile::remove(temporary);
        throw std::runtime_error(QStringLiteral("cannot replace %1: %2")
                                     .arg(path, QString::fromStdString(error.message()))
                                     .toStdString());
    }
}

} // namespace sahaj::engine
