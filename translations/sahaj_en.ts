<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QWizard</name>
    <message>
        <source>&lt; &amp;Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::engine::PausePolicy</name>
    <message>
        <source>battery state unknown on this machine: the battery rule cannot apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle time unknown on this desktop: the idle rule cannot apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle time unknown on this desktop: the GPU computes while the computer is in use</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::engine::VolunteerSettings</name>
    <message>
        <source>the run link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the user name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the weekly schedule is on but allows no hour: Sahaj could never compute; allow at least one hour or switch the schedule off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the idle time must be between %1 and %2 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the daily transfer quota cannot be negative: set 0 for no quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a daily transfer quota below %1 MB could never finish one averaging round (about 40 MB): set at least %1 MB, or 0 for no quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the daily transfer quota is larger than any connection could move: set 0 for no quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the country must be a two-letter ISO 3166 code in capitals, such as BD, or empty for the system&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the language must be English (en), Bengali (bn) or the system&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the snooze end is not a valid time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in client mode this peer sends its gradients through its own upload: a cap below 0.1 Mbit/s leaves it no upload; raise the upload cap or remove it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read (no room for a temporary copy: %2); the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not an INI file; the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds no settings; the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the settings still contradict each other (%1); the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is longer than %2 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is outside %1..%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is longer than %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not an accepted value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not 24 digits 0 or 1 (one per hour)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a single value (a list or an encoded object); the default is used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; %3; the default (%4) is used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the weekly schedule allows no hour: it is switched off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the daily quota was below %1 MB: it is switched off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the country was not a two-letter code: the system&apos;s is used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file; the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read (%2); the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is larger than any settings file (%2 bytes); the default settings are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the device must be auto, cpu, cuda or cuda:N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the disk space for downloaded data (the shard cache) must be between %1 and %2 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run directory&apos;s address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s organiser key must be 64 hexadecimal digits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run directory&apos;s address must be https://host/path, or http:// on a loopback or private address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a run directory needs both its address and its key (64 hexadecimal digits), from whoever keeps it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::AppController</name>
    <message>
        <source>Settings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine did not take the new limits: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This system names no folder for application data, where this peer&apos;s keys are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>today&apos;s transfer cannot be read (%1): the quota rule cannot apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining again did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::AutostartEntry</name>
    <message>
        <source>Sahaj cannot start at login: there is no folder for settings (is HOME set?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot remove %1, so Sahaj would still start at login: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for starting Sahaj at login.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1 for starting Sahaj at login: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting Sahaj at login is not available on this system yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::BandwidthPanel</name>
    <message>
        <source>Share of the recent rounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today&apos;s transfer against the daily quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Totals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload and download speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No averaging round yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer took no part in the recent rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer&apos;s share of the last round: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average over the last %1 rounds: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The transfer history cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1, no daily quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1 of the %2 daily quota: quota reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1 of the %2 daily quota (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All time</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ContributionPanel</name>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training examples this computer computed gradients on, in every run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens in those samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hours this computer spent computing them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs joined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global steps of the collaboration this computer took part in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the last batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer&apos;s samples as a part of the last global batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples contributed over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By h&amp;our (48 h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By &amp;day (30 days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contribution totals could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contribution history could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per hour, last 48 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per day, last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No samples contributed in the last 48 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No samples contributed in the last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples in all; the busiest bar has %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 – %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 samples, %3 tokens
%4 of compute in %5 epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ControlBar</name>
    <message>
        <source>Controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join or leave the collaboration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause or resume training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Finish this step, then pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finish this step, then pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep computing until the collaboration&apos;s next step is taken, then pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;nooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause for a few hours; the snooze survives a restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;3 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Join…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Leave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join a collaboration and start training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the collaboration politely and stop training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::DownloadProgress</name>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress of the download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading the run&apos;s data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time left unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::EventLogPanel</name>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Milestone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show events of level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show events containing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected events, or every event shown, as text (Ctrl+C)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cle&amp;ar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove every event from the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lev&amp;el:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fin&amp;d:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::Figures</name>
    <message>
        <source>%1 Mbit/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::JoinRunDialog</name>
    <message>
        <source>Join a run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the join link a run&apos;s organiser gave you (on the run&apos;s web page, or by message), choose its join file, or pick a run from the run directory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join &amp;link or file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is wrong with the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs in the directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Organiser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run directory could not be loaded: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run directory is set. Organisers publish their run&apos;s link on the run&apos;s web page; a directory&apos;s address and key, from whoever keeps it, go in Settings ▸ Run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the run directory from %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 M parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run directory lists no run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in the directory.</source>
        <translation>
            <numerusform>%n run in the directory.</numerusform>
            <numerusform>%n runs in the directory.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — by %2, whose key the directory gives: %3…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::JoinWizard</name>
    <message>
        <source>Join Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome to Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj trains a language model together with other volunteers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What Sahaj uses on this computer&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;its GPU or CPU, up to the share of the time you allow;&lt;/li&gt;&lt;li&gt;memory for the model and its training data;&lt;/li&gt;&lt;li&gt;network bandwidth, upload and download, up to the caps and the daily quota you set.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;What it sends to the other volunteers&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;gradients: numbers computed from the run&apos;s public training text, never your files;&lt;/li&gt;&lt;li&gt;its progress: samples computed, speed and the training step it is at;&lt;/li&gt;&lt;li&gt;its public key, which identifies this computer in the collaboration;&lt;/li&gt;&lt;li&gt;optionally the country you choose, shown on the other volunteers&apos; peer maps.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;You can pause, snooze or leave at any time, and change the limits in the settings.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show my country (%1) on the peer map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show my country on the peer map (this system names none: choose it later in the settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I &amp;understand what Sahaj uses and sends, and agree to contribute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the run to join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join &amp;link or file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only if the run asks for one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not stored: asked again when you join next time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Password or invite code:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A short measurement of how fast this computer trains the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Measure again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of this computer Sahaj may use. You can change these later in the settings, while it runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause while on &amp;battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why joining did not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed on %1 (micro-batch %2): %3 samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The measurement failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains with: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passed over: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj reads the run, downloads the data it needs and looks for the other volunteers. You can close this window: joining goes on, and the Training panel shows how far it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run&apos;s organiser gives its join link or join file to volunteers (on the run&apos;s web page, or by message): paste the link, or choose the file. Some runs also ask for a user name and a password or invite code, or a token file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is wrong with the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the &amp;demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A small collaboration on this computer alone, in a window of its own: see Sahaj train before you join a real run. Your settings stay as they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run link yet?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring on %1… %2 s (it can take a minute or two)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is about %1 samples a minute while it computes, all of them toward the run&apos;s shared batch.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::LimitsFields</name>
    <message>
        <source> Mbit/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the time the GPU or CPU spends on Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute usa&amp;ge:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples computed at once: fewer use less memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Micro-batch (memory):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload ca&amp;p:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dow&amp;nload cap:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daily &amp;transfer quota:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::MainWindow</name>
    <message>
        <source>Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Panels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Join…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+J</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+,</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Sahaj&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Volunteers train a Bengali language model together: each computer computes part of every batch and the peers average their gradients over the internet.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Leave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password or invite code for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj keeps running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj is still contributing. Open it or quit from its icon in the tray.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Copyright © 2026 The Sahaj developers&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Sahaj is free software under the &lt;a href=&quot;%1&quot;&gt;GNU General Public License, version 3 or later&lt;/a&gt;.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run link cannot be joined: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the &amp;demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A small collaboration on this computer alone, in a window of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy system information</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System information copied: paste it into your report</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PauseToggle</name>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PeerMapPanel</name>
    <message>
        <source>Peers of the collaboration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (you)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listed but not on the map: %1 (no country shared, or one too small for this map)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PeerRole</name>
    <message>
        <source>node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auxiliary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>coordinator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ReachabilityText</name>
    <message>
        <source>Others can connect to this computer (at %1): it aggregates a share of each averaging round.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Behind NAT: sending only. The others cannot connect to this computer (the coordinator sees it as %1), so it sends its gradients but aggregates no share of the rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Behind a firewall: sending only. The coordinator could not connect to %1 (%2), so this computer sends its gradients but aggregates no share of the rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting out only, as set in the settings: this computer aggregates no share of the rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accepting connections at %1; whether others can reach it was not checked (%2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::RoundShareBars</name>
    <message>
        <source>Share of the recent averaging rounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rounds shown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (did not complete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to average, %2 sent, %3 received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No averaging round yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::RunLinkField</name>
    <message>
        <source>Choose &amp;file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a join file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join files (*.join *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sahaj:join/…, https://… or a join file</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::SettingsDialog</name>
    <message>
        <source>Sahaj settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Limits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause r&amp;ules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems with these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join l&amp;ink:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only for runs that ask for one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User &amp;name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s own location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choo&amp;se…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data fold&amp;er:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect out onl&amp;y (behind NAT or a firewall)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload and download together per day; Sahaj pauses when it is reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause while on &amp;battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute only when the computer is &amp;idle for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute only in these &amp;hours of the week:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allo&amp;w all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow &amp;none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Evenings and weekends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start Sahaj when I log in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;notifications (errors, disconnection, milestones)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Takes effect the next time Sahaj starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lan&amp;guage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shown to the other volunteers on their peer map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Countr&amp;y shown to others:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Don&apos;t share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These settings were not saved:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto (every GPU a compute core passes its self-test on, else the CPU), cpu, cuda (the first GPU) or cuda:N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the &amp;GPU while the computer is in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: a GPU computes only after the computer has been idle for the minutes above; the CPU is not affected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most disk space the run&apos;s downloaded training data may take; the data used longest ago is removed first. Applies from the next time Sahaj joins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dis&amp;k space for data:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://… (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run directory&apos;s &amp;web address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>64 hexadecimal digits, from whoever keeps the directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Directory &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::SpeedPlotView</name>
    <message>
        <source>Upload and download speed graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latest upload %1, download %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No transfer recorded in this period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::StateText</name>
    <message>
        <source>Offline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the collaboration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snoozed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused by you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snoozed until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: running on battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: you are using the computer (computing only while idle)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: outside your weekly schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: today&apos;s transfer quota is reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pausing after this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>↑ %1 ↓ %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>disconnected from the collaboration — retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s organiser could not be reached to admit this computer (the run may be down, or this computer offline): try joining again later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s organiser refused this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s organiser refused this computer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s coordinator does not answer; training goes on with the other volunteers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo finished — to join a real run, quit the demo and choose Join… in Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::TrainingPanel</name>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global steps the collaboration has taken in this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next step in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimated time until the collaboration&apos;s batch is full and it takes a step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peers online</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volunteers training in this run, this one included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per second this computer computes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole collaboration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per second all the volunteers compute together</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clients online</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volunteers that compute but cannot accept connections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress of the current batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss by epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No loss recorded yet: the curve begins once the collaboration takes its first step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch size not known yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 samples (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 points, from epoch %2 to %3; the latest loss is %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What computes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compute core and device training here; the event log says why others were passed over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing with the %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::TrayIcon</name>
    <message>
        <source>Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;3 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &amp;6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj stopped training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training stopped because of an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj is disconnected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer left the collaboration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj milestone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj could not join the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Finish this step, then pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj — stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sahaj is disconnected — retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No other peer of the collaboration has been heard from for a while. Sahaj keeps computing and tries to reach them again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 global steps contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s coordinator does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training goes on with the other volunteers; new volunteers cannot join until the coordinator is back.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WeeklyScheduleGrid</name>
    <message>
        <source>Weekly schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hours of the week in which Sahaj may compute. Space toggles the selected hours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2:00 to %3:00</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: computing allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: paused</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WorldMap</name>
    <message>
        <source>The world map %1 cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The world map %1 is too large (%2 bytes, at most %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The world map %1 is not valid JSON: %2 at byte %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The world map %1 is not in the sahaj-world-map format, version 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The world map %1 lists no countries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The world map %1: country %2 (%3) %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no ISO 3166 alpha-2 code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is listed twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no label point [longitude, latitude]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no rings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a ring of fewer than four points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a point that is not [longitude, latitude] in degrees</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WorldMapView</name>
    <message>
        <source>World map of peers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not shared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peer %1 (this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peers placed on the map by country: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::DemoFillMaskRun</name>
    <message>
        <source>%1 could not be run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it printed none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::DemoOutcome</name>
    <message>
        <source>no prediction (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo finished: %1 steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo finished: %1 steps, loss %2 → %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fill-mask &quot;%1&quot; — before training: %2; after: %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::VolunteerApplication</name>
    <message>
        <source>Sahaj</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo did not start: %1 could not be run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
