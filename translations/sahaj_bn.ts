<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="bn_BD">
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>ঠিক আছে</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>বাতিল</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>প্রয়োগ করুন</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>বন্ধ করুন</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>সহায়তা</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>রিসেট</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>আগের মানে ফিরুন</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>হ্যাঁ (&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>না (&amp;N)</translation>
    </message>
</context>
<context>
    <name>QWizard</name>
    <message>
        <source>&lt; &amp;Back</source>
        <translation>&lt; পেছনে (&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>পরবর্তী (&amp;N) &gt;</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>শেষ (&amp;F)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>বাতিল</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>সহায়তা (&amp;H)</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>নিশ্চিত করুন</translation>
    </message>
</context>
<context>
    <name>sahaj::engine::PausePolicy</name>
    <message>
        <source>battery state unknown on this machine: the battery rule cannot apply</source>
        <translation>এই কম্পিউটারে ব্যাটারির অবস্থা জানা যায় না: ব্যাটারির নিয়ম প্রয়োগ করা যাবে না</translation>
    </message>
    <message>
        <source>idle time unknown on this desktop: the idle rule cannot apply</source>
        <translation>এই ডেস্কটপে নিষ্ক্রিয় থাকার সময় জানা যায় না: নিষ্ক্রিয়তার নিয়ম প্রয়োগ করা যাবে না</translation>
    </message>
    <message>
        <source>idle time unknown on this desktop: the GPU computes while the computer is in use</source>
        <translation>এই ডেস্কটপে নিষ্ক্রিয় থাকার সময় জানা যায় না: কম্পিউটার ব্যবহারের সময়েও GPU গণনা করছে</translation>
    </message>
</context>
<context>
    <name>sahaj::engine::VolunteerSettings</name>
    <message>
        <source>the run link</source>
        <translation>যোগদানের লিংক</translation>
    </message>
    <message>
        <source>the user name</source>
        <translation>ব্যবহারকারীর নাম</translation>
    </message>
    <message>
        <source>the token file</source>
        <translation>টোকেন ফাইল</translation>
    </message>
    <message>
        <source>the data folder</source>
        <translation>ডেটা ফোল্ডার</translation>
    </message>
    <message>
        <source>the weekly schedule is on but allows no hour: Sahaj could never compute; allow at least one hour or switch the schedule off</source>
        <translation>সাপ্তাহিক সময়সূচি চালু আছে কিন্তু কোনো ঘণ্টাই অনুমোদিত নয়: Sahaj কখনোই গণনা করতে পারবে না; অন্তত এক ঘণ্টা অনুমোদন করুন অথবা সময়সূচি বন্ধ করুন</translation>
    </message>
    <message>
        <source>the idle time must be between %1 and %2 minutes</source>
        <translation>নিষ্ক্রিয় থাকার সময় %1 থেকে %2 মিনিটের মধ্যে হতে হবে</translation>
    </message>
    <message>
        <source>the daily transfer quota cannot be negative: set 0 for no quota</source>
        <translation>দৈনিক ডেটা কোটা ঋণাত্মক হতে পারে না: কোটা না রাখতে ০ দিন</translation>
    </message>
    <message>
        <source>a daily transfer quota below %1 MB could never finish one averaging round (about 40 MB): set at least %1 MB, or 0 for no quota</source>
        <translation>%1 MB-এর কম দৈনিক ডেটা কোটায় গড় নির্ণয়ের একটি রাউন্ডও (প্রায় ৪০ MB) শেষ হবে না: অন্তত %1 MB দিন, অথবা কোটা না রাখতে ০</translation>
    </message>
    <message>
        <source>the daily transfer quota is larger than any connection could move: set 0 for no quota</source>
        <translation>দৈনিক ডেটা কোটা এত বড় যে কোনো সংযোগই এতটা আদান-প্রদান করতে পারবে না: কোটা না রাখতে ০ দিন</translation>
    </message>
    <message>
        <source>the country must be a two-letter ISO 3166 code in capitals, such as BD, or empty for the system&apos;s</source>
        <translation>দেশ হতে হবে বড় হাতের দুই অক্ষরের ISO 3166 কোড, যেমন BD, অথবা সিস্টেমের দেশের জন্য ফাঁকা</translation>
    </message>
    <message>
        <source>the language must be English (en), Bengali (bn) or the system&apos;s</source>
        <translation>ভাষা হতে হবে ইংরেজি (en), বাংলা (bn) অথবা সিস্টেমের ভাষা</translation>
    </message>
    <message>
        <source>the snooze end is not a valid time</source>
        <translation>স্নুজ শেষের সময়টি বৈধ নয়</translation>
    </message>
    <message>
        <source>in client mode this peer sends its gradients through its own upload: a cap below 0.1 Mbit/s leaves it no upload; raise the upload cap or remove it</source>
        <translation>ক্লায়েন্ট মোডে এই পিয়ার নিজের আপলোড দিয়েই গ্রেডিয়েন্ট পাঠায়: ০.১ Mbit/s-এর কম সীমায় আপলোড করাই যায় না; আপলোডের সীমা বাড়ান অথবা তুলে দিন</translation>
    </message>
    <message>
        <source>%1 cannot be read (no room for a temporary copy: %2); the default settings are used</source>
        <translation>%1 পড়া যাচ্ছে না (অস্থায়ী কপির জায়গা নেই: %2); ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 is not an INI file; the default settings are used</source>
        <translation>%1 কোনো INI ফাইল নয়; ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 holds no settings; the default settings are used</source>
        <translation>%1-এ কোনো সেটিংস নেই; ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>the settings still contradict each other (%1); the default settings are used</source>
        <translation>সেটিংসগুলো এখনও পরস্পরবিরোধী (%1); ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 is longer than %2 characters</source>
        <translation>%1 %2 অক্ষরের চেয়ে লম্বা</translation>
    </message>
    <message>
        <source>is not true or false</source>
        <translation>true বা false নয়</translation>
    </message>
    <message>
        <source>is not a whole number</source>
        <translation>পূর্ণসংখ্যা নয়</translation>
    </message>
    <message>
        <source>is outside %1..%2</source>
        <translation>%1..%2 সীমার বাইরে</translation>
    </message>
    <message>
        <source>is not a number</source>
        <translation>সংখ্যা নয়</translation>
    </message>
    <message>
        <source>is longer than %1 characters</source>
        <translation>%1 অক্ষরের চেয়ে লম্বা</translation>
    </message>
    <message>
        <source>is not an accepted value</source>
        <translation>গ্রহণযোগ্য মান নয়</translation>
    </message>
    <message>
        <source>is not 24 digits 0 or 1 (one per hour)</source>
        <translation>0 বা 1 দিয়ে লেখা ২৪টি অঙ্ক নয় (প্রতি ঘণ্টায় একটি)</translation>
    </message>
    <message>
        <source>%1: not a single value (a list or an encoded object); the default is used</source>
        <translation>%1: একক মান নয় (একটি তালিকা বা এনকোড করা অবজেক্ট); ডিফল্ট মান ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; %3; the default (%4) is used</source>
        <translation>%1: &quot;%2&quot; %3; ডিফল্ট মান (%4) ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>the weekly schedule allows no hour: it is switched off</source>
        <translation>সাপ্তাহিক সময়সূচিতে কোনো ঘণ্টাই অনুমোদিত নেই: তাই এটি বন্ধ রাখা হয়েছে</translation>
    </message>
    <message>
        <source>the daily quota was below %1 MB: it is switched off</source>
        <translation>দৈনিক কোটা %1 MB-এর কম ছিল: তাই এটি বন্ধ রাখা হয়েছে</translation>
    </message>
    <message>
        <source>the country was not a two-letter code: the system&apos;s is used</source>
        <translation>দেশটি দুই অক্ষরের কোড ছিল না: সিস্টেমের দেশ ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 is not a file; the default settings are used</source>
        <translation>%1 কোনো ফাইল নয়; ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 cannot be read (%2); the default settings are used</source>
        <translation>%1 পড়া যাচ্ছে না (%2); ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>%1 is larger than any settings file (%2 bytes); the default settings are used</source>
        <translation>%1 যেকোনো সেটিংস ফাইলের চেয়ে বড় (%2 বাইট); ডিফল্ট সেটিংস ব্যবহার করা হচ্ছে</translation>
    </message>
    <message>
        <source>the device must be auto, cpu, cuda or cuda:N</source>
        <translation>ডিভাইস হতে হবে auto, cpu, cuda অথবা cuda:N</translation>
    </message>
    <message>
        <source>the disk space for downloaded data (the shard cache) must be between %1 and %2 GiB</source>
        <translation>ডাউনলোড করা ডেটার জন্য ডিস্কের জায়গা (শার্ড ক্যাশ) %1 থেকে %2 GiB-এর মধ্যে হতে হবে</translation>
    </message>
    <message>
        <source>the run directory&apos;s address</source>
        <translation>প্রশিক্ষণ তালিকার ঠিকানা</translation>
    </message>
    <message>
        <source>the run&apos;s organiser key must be 64 hexadecimal digits</source>
        <translation>প্রশিক্ষণের আয়োজকের কী হতে হবে ৬৪টি হেক্সাডেসিমাল অঙ্ক</translation>
    </message>
    <message>
        <source>the run directory&apos;s address must be https://host/path, or http:// on a loopback or private address</source>
        <translation>প্রশিক্ষণ তালিকার ঠিকানা হতে হবে https://host/path, অথবা লুপব্যাক বা প্রাইভেট ঠিকানায় http://</translation>
    </message>
    <message>
        <source>a run directory needs both its address and its key (64 hexadecimal digits), from whoever keeps it</source>
        <translation>প্রশিক্ষণ তালিকার ঠিকানা ও কী (৬৪টি হেক্সাডেসিমাল অঙ্ক) দুটোই লাগবে, যিনি তালিকাটি রাখেন তাঁর কাছ থেকে</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::AppController</name>
    <message>
        <source>Settings: %1</source>
        <translation>সেটিংস: %1</translation>
    </message>
    <message>
        <source>The settings could not be saved: %1</source>
        <translation>সেটিংস সংরক্ষণ করা যায়নি: %1</translation>
    </message>
    <message>
        <source>The engine did not take the new limits: %1</source>
        <translation>ইঞ্জিন নতুন সীমাগুলো গ্রহণ করেনি: %1</translation>
    </message>
    <message>
        <source>This system names no folder for application data, where this peer&apos;s keys are kept</source>
        <translation>এই সিস্টেমে অ্যাপ্লিকেশন ডেটার কোনো ফোল্ডার নির্ধারিত নেই, যেখানে এই পিয়ারের ক্রিপ্টোগ্রাফিক কী রাখা হয়</translation>
    </message>
    <message>
        <source>today&apos;s transfer cannot be read (%1): the quota rule cannot apply</source>
        <translation>আজকের ডেটা আদান-প্রদানের হিসাব পড়া যাচ্ছে না (%1): কোটার নিয়ম প্রয়োগ করা যাবে না</translation>
    </message>
    <message>
        <source>Joining again did not start: %1</source>
        <translation>আবার যোগ দেওয়া শুরু হয়নি: %1</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::AutostartEntry</name>
    <message>
        <source>Sahaj cannot start at login: there is no folder for settings (is HOME set?).</source>
        <translation>লগইনের সময় Sahaj চালু হতে পারবে না: সেটিংসের জন্য কোনো ফোল্ডার নেই (HOME কি সেট করা আছে?)।</translation>
    </message>
    <message>
        <source>Cannot remove %1, so Sahaj would still start at login: %2</source>
        <translation>%1 মুছে ফেলা যাচ্ছে না, তাই লগইনের সময় Sahaj এখনও চালু হবে: %2</translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for starting Sahaj at login.</source>
        <translation>লগইনের সময় Sahaj চালু করার জন্য %1 ফোল্ডারটি তৈরি করা যাচ্ছে না।</translation>
    </message>
    <message>
        <source>Cannot write %1 for starting Sahaj at login: %2</source>
        <translation>লগইনের সময় Sahaj চালু করার জন্য %1 লেখা যাচ্ছে না: %2</translation>
    </message>
    <message>
        <source>Starting Sahaj at login is not available on this system yet.</source>
        <translation>এই সিস্টেমে লগইনের সময় Sahaj চালু করার সুবিধা এখনও নেই।</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::BandwidthPanel</name>
    <message>
        <source>Share of the recent rounds</source>
        <translation>সাম্প্রতিক রাউন্ডগুলোতে অংশ</translation>
    </message>
    <message>
        <source>Today&apos;s transfer against the daily quota</source>
        <translation>দৈনিক কোটার তুলনায় আজকের ডেটা আদান-প্রদান</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>মোট</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>প্রেরিত</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>গৃহীত</translation>
    </message>
    <message>
        <source>This session</source>
        <translation>এই সেশনে</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>আজ</translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation>৫ মিনিট</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>১ ঘণ্টা</translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation>৬ ঘণ্টা</translation>
    </message>
    <message>
        <source>24 hours</source>
        <translation>২৪ ঘণ্টা</translation>
    </message>
    <message>
        <source>7 days</source>
        <translation>৭ দিন</translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>সময়কাল (&amp;P):</translation>
    </message>
    <message>
        <source>Upload and download speed</source>
        <translation>আপলোড ও ডাউনলোডের গতি</translation>
    </message>
    <message>
        <source>No averaging round yet.</source>
        <translation>এখনও গড় নির্ণয়ের কোনো রাউন্ড হয়নি।</translation>
    </message>
    <message>
        <source>This computer took no part in the recent rounds.</source>
        <translation>সাম্প্রতিক রাউন্ডগুলোতে এই কম্পিউটার অংশ নেয়নি।</translation>
    </message>
    <message>
        <source>This computer&apos;s share of the last round: %1</source>
        <translation>শেষ রাউন্ডে এই কম্পিউটারের অংশ: %1</translation>
    </message>
    <message>
        <source>average over the last %1 rounds: %2</source>
        <translation>শেষ %1টি রাউন্ডের গড়: %2</translation>
    </message>
    <message>
        <source>The transfer history cannot be read: %1</source>
        <translation>ডেটা আদান-প্রদানের ইতিহাস পড়া যাচ্ছে না: %1</translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1, no daily quota</source>
        <translation>আজকের ডেটা আদান-প্রদান: %1, কোনো দৈনিক কোটা নেই</translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1 of the %2 daily quota: quota reached</source>
        <translation>আজকের ডেটা আদান-প্রদান: %2 দৈনিক কোটার %1: কোটা পূর্ণ</translation>
    </message>
    <message>
        <source>Today&apos;s transfer: %1 of the %2 daily quota (%3)</source>
        <translation>আজকের ডেটা আদান-প্রদান: %2 দৈনিক কোটার %1 (%3)</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>শুরু থেকে</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ContributionPanel</name>
    <message>
        <source>%1 h</source>
        <translation>%1 ঘণ্টা</translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation>অবদান</translation>
    </message>
    <message>
        <source>Samples contributed</source>
        <translation>অবদান রাখা নমুনা</translation>
    </message>
    <message>
        <source>Training examples this computer computed gradients on, in every run</source>
        <translation>সব প্রশিক্ষণ মিলিয়ে যতগুলো প্রশিক্ষণ-উদাহরণের ওপর এই কম্পিউটার গ্রেডিয়েন্ট গণনা করেছে</translation>
    </message>
    <message>
        <source>Tokens contributed</source>
        <translation>অবদান রাখা টোকেন</translation>
    </message>
    <message>
        <source>Tokens in those samples</source>
        <translation>ওই নমুনাগুলোতে থাকা টোকেন</translation>
    </message>
    <message>
        <source>Compute hours</source>
        <translation>গণনার ঘণ্টা</translation>
    </message>
    <message>
        <source>Hours this computer spent computing them</source>
        <translation>এগুলো গণনায় এই কম্পিউটার যত ঘণ্টা ব্যয় করেছে</translation>
    </message>
    <message>
        <source>Epochs joined</source>
        <translation>অংশ নেওয়া ইপক</translation>
    </message>
    <message>
        <source>Global steps of the collaboration this computer took part in</source>
        <translation>সহযোগিতার যেসব সামগ্রিক ধাপে এই কম্পিউটার অংশ নিয়েছে</translation>
    </message>
    <message>
        <source>Share of the last batch</source>
        <translation>শেষ ব্যাচে অংশ</translation>
    </message>
    <message>
        <source>This computer&apos;s samples as a part of the last global batch</source>
        <translation>শেষ সামগ্রিক ব্যাচে এই কম্পিউটারের নমুনার অংশ</translation>
    </message>
    <message>
        <source>Samples contributed over time</source>
        <translation>সময়ের সাথে অবদান রাখা নমুনা</translation>
    </message>
    <message>
        <source>By h&amp;our (48 h)</source>
        <translation>ঘণ্টা অনুযায়ী (৪৮ ঘণ্টা) (&amp;O)</translation>
    </message>
    <message>
        <source>By &amp;day (30 days)</source>
        <translation>দিন অনুযায়ী (৩০ দিন) (&amp;D)</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>নমুনা</translation>
    </message>
    <message>
        <source>The contribution totals could not be read</source>
        <translation>অবদানের মোট হিসাব পড়া যায়নি</translation>
    </message>
    <message>
        <source>The contribution history could not be read</source>
        <translation>অবদানের ইতিহাস পড়া যায়নি</translation>
    </message>
    <message>
        <source>Samples per hour, last 48 hours</source>
        <translation>ঘণ্টাপ্রতি নমুনা, শেষ ৪৮ ঘণ্টা</translation>
    </message>
    <message>
        <source>Samples per day, last 30 days</source>
        <translation>দিনপ্রতি নমুনা, শেষ ৩০ দিন</translation>
    </message>
    <message>
        <source>No samples contributed in the last 48 hours</source>
        <translation>শেষ ৪৮ ঘণ্টায় কোনো নমুনার অবদান নেই</translation>
    </message>
    <message>
        <source>No samples contributed in the last 30 days</source>
        <translation>শেষ ৩০ দিনে কোনো নমুনার অবদান নেই</translation>
    </message>
    <message>
        <source>%1 samples in all; the busiest bar has %2</source>
        <translation>সব মিলিয়ে %1টি নমুনা; সবচেয়ে উঁচু বারে %2টি</translation>
    </message>
    <message>
        <source>%1, %2 – %3</source>
        <translation>%1, %2 – %3</translation>
    </message>
    <message>
        <source>%1
%2 samples, %3 tokens
%4 of compute in %5 epochs</source>
        <translation>%1
%2টি নমুনা, %3টি টোকেন
%5টি ইপকে %4 গণনা</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ControlBar</name>
    <message>
        <source>Controls</source>
        <translation>নিয়ন্ত্রণ</translation>
    </message>
    <message>
        <source>Join or leave the collaboration</source>
        <translation>সহযোগিতায় যোগ দিন বা ছেড়ে যান</translation>
    </message>
    <message>
        <source>Pause or resume training</source>
        <translation>প্রশিক্ষণে বিরতি দিন বা আবার চালু করুন</translation>
    </message>
    <message>
        <source>&amp;Finish this step, then pause</source>
        <translation>এই ধাপ শেষ করে বিরতি (&amp;F)</translation>
    </message>
    <message>
        <source>Finish this step, then pause</source>
        <translation>এই ধাপ শেষ করে বিরতি</translation>
    </message>
    <message>
        <source>Keep computing until the collaboration&apos;s next step is taken, then pause</source>
        <translation>সহযোগিতার পরের ধাপ নেওয়া পর্যন্ত গণনা চলবে, তারপর বিরতি</translation>
    </message>
    <message>
        <source>S&amp;nooze</source>
        <translation>স্নুজ (&amp;N)</translation>
    </message>
    <message>
        <source>Snooze</source>
        <translation>স্নুজ</translation>
    </message>
    <message>
        <source>Pause for a few hours; the snooze survives a restart</source>
        <translation>কয়েক ঘণ্টার বিরতি; রিস্টার্টের পরেও স্নুজ বহাল থাকে</translation>
    </message>
    <message>
        <source>For &amp;1 hour</source>
        <translation>১ ঘণ্টার জন্য (&amp;1)</translation>
    </message>
    <message>
        <source>For &amp;3 hours</source>
        <translation>৩ ঘণ্টার জন্য (&amp;3)</translation>
    </message>
    <message>
        <source>For &amp;6 hours</source>
        <translation>৬ ঘণ্টার জন্য (&amp;6)</translation>
    </message>
    <message>
        <source>&amp;Cancel snooze</source>
        <translation>স্নুজ বাতিল করুন (&amp;C)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>অবস্থা</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>সতর্কতা</translation>
    </message>
    <message>
        <source>&amp;Join…</source>
        <translation>যোগ দিন (&amp;J)…</translation>
    </message>
    <message>
        <source>&amp;Leave</source>
        <translation>ছেড়ে যান (&amp;L)</translation>
    </message>
    <message>
        <source>Join a collaboration and start training</source>
        <translation>একটি সহযোগিতায় যোগ দিন এবং প্রশিক্ষণ শুরু করুন</translation>
    </message>
    <message>
        <source>Leave the collaboration politely and stop training</source>
        <translation>অন্যদের জানিয়ে সহযোগিতা ছেড়ে যান এবং প্রশিক্ষণ বন্ধ করুন</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>থামছে…</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::DownloadProgress</name>
    <message>
        <source>Download</source>
        <translation>ডাউনলোড</translation>
    </message>
    <message>
        <source>Progress of the download</source>
        <translation>ডাউনলোডের অগ্রগতি</translation>
    </message>
    <message>
        <source>Downloading the run&apos;s data</source>
        <translation>প্রশিক্ষণের ডেটা ডাউনলোড হচ্ছে</translation>
    </message>
    <message>
        <source>Downloading %1</source>
        <translation>%1 ডাউনলোড হচ্ছে</translation>
    </message>
    <message>
        <source>%1 of %2 (%3)</source>
        <translation>%2-এর মধ্যে %1 (%3)</translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation>এ পর্যন্ত %1</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>আর %1 বাকি</translation>
    </message>
    <message>
        <source>time left unknown</source>
        <translation>বাকি সময় অজানা</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::EventLogPanel</name>
    <message>
        <source>Info</source>
        <translation>তথ্য</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>সতর্কতা</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>ত্রুটি</translation>
    </message>
    <message>
        <source>Milestone</source>
        <translation>মাইলফলক</translation>
    </message>
    <message>
        <source>Event log</source>
        <translation>ইভেন্ট লগ</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>সময়</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>স্তর</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>ইভেন্ট</translation>
    </message>
    <message>
        <source>Show events of level</source>
        <translation>যে স্তরের ইভেন্ট দেখানো হবে</translation>
    </message>
    <message>
        <source>All levels</source>
        <translation>সব স্তর</translation>
    </message>
    <message>
        <source>Show events containing</source>
        <translation>যে লেখা আছে এমন ইভেন্ট দেখানো হবে</translation>
    </message>
    <message>
        <source>Filter by text</source>
        <translation>লেখা দিয়ে ফিল্টার করুন</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>কপি (&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected events, or every event shown, as text (Ctrl+C)</source>
        <translation>নির্বাচিত ইভেন্টগুলো, অথবা দেখানো সব ইভেন্ট, লেখা হিসেবে কপি করুন (Ctrl+C)</translation>
    </message>
    <message>
        <source>Cle&amp;ar</source>
        <translation>সব মুছুন (&amp;A)</translation>
    </message>
    <message>
        <source>Remove every event from the log</source>
        <translation>লগ থেকে সব ইভেন্ট মুছে ফেলুন</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>ইভেন্ট</translation>
    </message>
    <message>
        <source>Lev&amp;el:</source>
        <translation>ইভেন্টের স্তর (&amp;E):</translation>
    </message>
    <message>
        <source>Fin&amp;d:</source>
        <translation>অনুসন্ধান (&amp;D):</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::Figures</name>
    <message>
        <source>%1 Mbit/s</source>
        <translation>%1 Mbit/s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 সেকেন্ড</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 মিনিট %2 সেকেন্ড</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 ঘণ্টা %2 মিনিট</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 দিন %2 ঘণ্টা</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::JoinRunDialog</name>
    <message>
        <source>Join a run</source>
        <translation>কোনো প্রশিক্ষণে যোগ দিন</translation>
    </message>
    <message>
        <source>Paste the join link a run&apos;s organiser gave you (on the run&apos;s web page, or by message), choose its join file, or pick a run from the run directory.</source>
        <translation>প্রশিক্ষণের আয়োজক আপনাকে যে যোগদানের লিংক দিয়েছেন (প্রশিক্ষণের ওয়েব পেজে, বা বার্তায়) তা পেস্ট করুন, এর যোগদান ফাইল বেছে নিন, অথবা প্রশিক্ষণ তালিকা থেকে একটি প্রশিক্ষণ বেছে নিন।</translation>
    </message>
    <message>
        <source>Join &amp;link or file:</source>
        <translation>যোগদানের লিংক বা ফাইল (&amp;L):</translation>
    </message>
    <message>
        <source>What is wrong with the run</source>
        <translation>প্রশিক্ষণটিতে কী সমস্যা</translation>
    </message>
    <message>
        <source>Runs in the directory</source>
        <translation>তালিকার প্রশিক্ষণগুলো</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>প্রশিক্ষণ</translation>
    </message>
    <message>
        <source>Organiser</source>
        <translation>আয়োজক</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>মডেল</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>ডাউনলোড</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>রিফ্রেশ (&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>যোগ দিন (&amp;J)</translation>
    </message>
    <message>
        <source>The run directory could not be loaded: %1</source>
        <translation>প্রশিক্ষণ তালিকা লোড করা যায়নি: %1</translation>
    </message>
    <message>
        <source>No run directory is set. Organisers publish their run&apos;s link on the run&apos;s web page; a directory&apos;s address and key, from whoever keeps it, go in Settings ▸ Run.</source>
        <translation>কোনো প্রশিক্ষণ তালিকা ঠিক করা নেই। আয়োজকেরা তাঁদের প্রশিক্ষণের লিংক প্রশিক্ষণের ওয়েব পেজে প্রকাশ করেন; কোনো তালিকার ঠিকানা ও কী, যিনি তালিকাটি রাখেন তাঁর কাছ থেকে নিয়ে, সেটিংস ▸ যোগদান-এ দিন।</translation>
    </message>
    <message>
        <source>Loading the run directory from %1…</source>
        <translation>%1 থেকে প্রশিক্ষণ তালিকা লোড হচ্ছে…</translation>
    </message>
    <message>
        <source>%1 M parameters</source>
        <translation>%1 M প্যারামিটার</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>উল্লেখ নেই</translation>
    </message>
    <message>
        <source>The run directory lists no run.</source>
        <translation>প্রশিক্ষণ তালিকায় কোনো প্রশিক্ষণ নেই।</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in the directory.</source>
        <translation>
            <numerusform>তালিকায় %nটি প্রশিক্ষণ।</numerusform>
            <numerusform>তালিকায় %nটি প্রশিক্ষণ।</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — by %2, whose key the directory gives: %3…</source>
        <translation>%1 — আয়োজক %2, তালিকা অনুযায়ী যাঁর কী: %3…</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::JoinWizard</name>
    <message>
        <source>Join Sahaj</source>
        <translation>Sahaj-এ যোগ দিন</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>যোগ দিন (&amp;J)</translation>
    </message>
    <message>
        <source>Welcome to Sahaj</source>
        <translation>Sahaj-এ স্বাগতম</translation>
    </message>
    <message>
        <source>Sahaj trains a language model together with other volunteers.</source>
        <translation>Sahaj অন্য স্বেচ্ছাসেবীদের সাথে মিলে একটি ভাষা মডেল প্রশিক্ষণ দেয়।</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What Sahaj uses on this computer&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;its GPU or CPU, up to the share of the time you allow;&lt;/li&gt;&lt;li&gt;memory for the model and its training data;&lt;/li&gt;&lt;li&gt;network bandwidth, upload and download, up to the caps and the daily quota you set.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;What it sends to the other volunteers&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;gradients: numbers computed from the run&apos;s public training text, never your files;&lt;/li&gt;&lt;li&gt;its progress: samples computed, speed and the training step it is at;&lt;/li&gt;&lt;li&gt;its public key, which identifies this computer in the collaboration;&lt;/li&gt;&lt;li&gt;optionally the country you choose, shown on the other volunteers&apos; peer maps.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;You can pause, snooze or leave at any time, and change the limits in the settings.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;এই কম্পিউটারে Sahaj যা ব্যবহার করে&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;এর GPU বা CPU, আপনি সময়ের যতটুকু অংশ অনুমোদন করবেন ততটুকু;&lt;/li&gt;&lt;li&gt;মডেল ও তার প্রশিক্ষণ ডেটার জন্য মেমরি;&lt;/li&gt;&lt;li&gt;নেটওয়ার্ক ব্যান্ডউইথ, আপলোড ও ডাউনলোড, আপনার দেওয়া সীমা ও দৈনিক কোটা পর্যন্ত।&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;অন্য স্বেচ্ছাসেবীদের কাছে যা পাঠায়&lt;/b&gt;&lt;/p&gt;&lt;ul&gt;&lt;li&gt;গ্রেডিয়েন্ট: প্রশিক্ষণের উন্মুক্ত পাঠ্য থেকে গণনা করা সংখ্যা, কখনোই আপনার ফাইল নয়;&lt;/li&gt;&lt;li&gt;এর অগ্রগতি: গণনা করা নমুনা, গতি এবং প্রশিক্ষণের কোন ধাপে আছে;&lt;/li&gt;&lt;li&gt;এর পাবলিক কী, যা সহযোগিতায় এই কম্পিউটারকে শনাক্ত করে;&lt;/li&gt;&lt;li&gt;আপনি চাইলে আপনার বেছে নেওয়া দেশ, যা অন্য স্বেচ্ছাসেবীদের পিয়ার মানচিত্রে দেখানো হয়।&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;আপনি যেকোনো সময় বিরতি দিতে, স্নুজ করতে বা ছেড়ে যেতে পারেন, এবং সেটিংসে সীমাগুলো বদলাতে পারেন।&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Show my country (%1) on the peer map</source>
        <translation>পিয়ার মানচিত্রে আমার দেশ (%1) দেখানো হোক (&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Show my country on the peer map (this system names none: choose it later in the settings)</source>
        <translation>পিয়ার মানচিত্রে আমার দেশ দেখানো হোক (এই সিস্টেমে কোনো দেশ নির্ধারিত নেই: পরে সেটিংসে বেছে নিন) (&amp;S)</translation>
    </message>
    <message>
        <source>I &amp;understand what Sahaj uses and sends, and agree to contribute</source>
        <translation>Sahaj কী ব্যবহার করে ও কী পাঠায় তা আমি বুঝেছি, এবং অবদান রাখতে সম্মত (&amp;U)</translation>
    </message>
    <message>
        <source>Choose the run to join</source>
        <translation>কোন প্রশিক্ষণে যোগ দেবেন তা বেছে নিন</translation>
    </message>
    <message>
        <source>Join &amp;link or file:</source>
        <translation>যোগদানের লিংক বা ফাইল (&amp;L):</translation>
    </message>
    <message>
        <source>only if the run asks for one</source>
        <translation>শুধু প্রশিক্ষণে চাওয়া হলে</translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation>ব্যবহারকারীর নাম (&amp;U):</translation>
    </message>
    <message>
        <source>not stored: asked again when you join next time</source>
        <translation>সংরক্ষণ করা হয় না: পরের বার যোগ দেওয়ার সময় আবার চাওয়া হবে</translation>
    </message>
    <message>
        <source>&amp;Password or invite code:</source>
        <translation>পাসওয়ার্ড বা আমন্ত্রণ কোড (&amp;P):</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>ঐচ্ছিক</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>ব্রাউজ (&amp;H)…</translation>
    </message>
    <message>
        <source>Choose a token file</source>
        <translation>একটি টোকেন ফাইল বেছে নিন</translation>
    </message>
    <message>
        <source>Token file</source>
        <translation>টোকেন ফাইল</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>টোকেন ফাইল (&amp;T):</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>এই কম্পিউটার</translation>
    </message>
    <message>
        <source>A short measurement of how fast this computer trains the model.</source>
        <translation>এই কম্পিউটার কত দ্রুত মডেলটি প্রশিক্ষণ দেয় তার একটি সংক্ষিপ্ত পরিমাপ।</translation>
    </message>
    <message>
        <source>&amp;Device:</source>
        <translation>ডিভাইস (&amp;D):</translation>
    </message>
    <message>
        <source>&amp;Measure again</source>
        <translation>আবার মাপুন (&amp;M)</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>পরিমাপ</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>ফলাফল:</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>সীমা</translation>
    </message>
    <message>
        <source>How much of this computer Sahaj may use. You can change these later in the settings, while it runs.</source>
        <translation>Sahaj এই কম্পিউটারের কতটুকু ব্যবহার করতে পারবে। পরে সেটিংসে, চলমান অবস্থাতেই, এগুলো বদলাতে পারবেন।</translation>
    </message>
    <message>
        <source>Pause while on &amp;battery</source>
        <translation>ব্যাটারিতে চললে বিরতি (&amp;B)</translation>
    </message>
    <message>
        <source>Why joining did not start</source>
        <translation>যোগদান কেন শুরু হয়নি</translation>
    </message>
    <message>
        <source>Devices: %1</source>
        <translation>ডিভাইস: %1</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>কোনোটি পাওয়া যায়নি</translation>
    </message>
    <message>
        <source>Memory: %1</source>
        <translation>মেমরি: %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>অজানা</translation>
    </message>
    <message>
        <source>Speed on %1 (micro-batch %2): %3 samples/s</source>
        <translation>%1-এ গতি (মাইক্রো-ব্যাচ %2): %3 নমুনা/সেকেন্ড</translation>
    </message>
    <message>
        <source>The measurement failed: %1</source>
        <translation>পরিমাপ ব্যর্থ হয়েছে: %1</translation>
    </message>
    <message>
        <source>Joining did not start: %1</source>
        <translation>যোগদান শুরু হয়নি: %1</translation>
    </message>
    <message>
        <source>Trains with: %1</source>
        <translation>যা দিয়ে প্রশিক্ষণ চলবে: %1</translation>
    </message>
    <message>
        <source>Passed over: %1</source>
        <translation>বাদ দেওয়া হয়েছে: %1</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>বন্ধ করুন (&amp;C)</translation>
    </message>
    <message>
        <source>Joining the run</source>
        <translation>প্রশিক্ষণে যোগ দেওয়া হচ্ছে</translation>
    </message>
    <message>
        <source>Sahaj reads the run, downloads the data it needs and looks for the other volunteers. You can close this window: joining goes on, and the Training panel shows how far it is.</source>
        <translation>Sahaj প্রশিক্ষণের বিবরণ পড়ছে, প্রয়োজনীয় ডেটা ডাউনলোড করছে এবং অন্য স্বেচ্ছাসেবীদের খুঁজছে। আপনি এই উইন্ডো বন্ধ করতে পারেন: যোগদান চলতে থাকবে, আর প্রশিক্ষণ প্যানেলে দেখা যাবে তা কতদূর এগোল।</translation>
    </message>
    <message>
        <source>State</source>
        <translation>অবস্থা</translation>
    </message>
    <message>
        <source>A run&apos;s organiser gives its join link or join file to volunteers (on the run&apos;s web page, or by message): paste the link, or choose the file. Some runs also ask for a user name and a password or invite code, or a token file.</source>
        <translation>প্রশিক্ষণের আয়োজক স্বেচ্ছাসেবকদের যোগদানের লিংক বা যোগদান ফাইল দেন (প্রশিক্ষণের ওয়েব পাতায়, অথবা বার্তায়): লিংকটি পেস্ট করুন, অথবা ফাইলটি বেছে নিন। কিছু প্রশিক্ষণে ব্যবহারকারীর নাম এবং পাসওয়ার্ড বা আমন্ত্রণ কোড, অথবা একটি টোকেন ফাইলও চাওয়া হয়।</translation>
    </message>
    <message>
        <source>What is wrong with the run</source>
        <translation>প্রশিক্ষণটিতে কী সমস্যা</translation>
    </message>
    <message>
        <source>Try the &amp;demo</source>
        <translation>ডেমো চালিয়ে দেখুন (&amp;D)</translation>
    </message>
    <message>
        <source>A small collaboration on this computer alone, in a window of its own: see Sahaj train before you join a real run. Your settings stay as they are.</source>
        <translation>শুধু এই কম্পিউটারে, আলাদা একটি উইন্ডোতে একটি ছোট সহযোগিতা: আসল কোনো প্রশিক্ষণে যোগ দেওয়ার আগে দেখুন Sahaj কীভাবে প্রশিক্ষণ দেয়। আপনার সেটিংস যেমন আছে তেমনই থাকবে।</translation>
    </message>
    <message>
        <source>No run link yet?</source>
        <translation>এখনো কোনো প্রশিক্ষণের লিংক নেই?</translation>
    </message>
    <message>
        <source>Measuring</source>
        <translation>মাপা হচ্ছে</translation>
    </message>
    <message>
        <source>Measuring on %1… %2 s (it can take a minute or two)</source>
        <translation>%1-এ মাপা হচ্ছে… %2 সেকেন্ড (এক-দুই মিনিট লাগতে পারে)</translation>
    </message>
    <message>
        <source>That is about %1 samples a minute while it computes, all of them toward the run&apos;s shared batch.</source>
        <translation>অর্থাৎ কম্পিউট করার সময় মিনিটে প্রায় %1টি নমুনা, সবই রানের যৌথ ব্যাচের জন্য।</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::LimitsFields</name>
    <message>
        <source> Mbit/s</source>
        <translation> Mbit/s</translation>
    </message>
    <message>
        <source>No cap</source>
        <translation>সীমা নেই</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Share of the time the GPU or CPU spends on Sahaj</source>
        <translation>GPU বা CPU তার সময়ের যে অংশ Sahaj-এর কাজে দেয়</translation>
    </message>
    <message>
        <source>Compute usa&amp;ge:</source>
        <translation>গণনায় ব্যবহার (&amp;G):</translation>
    </message>
    <message>
        <source>Samples computed at once: fewer use less memory</source>
        <translation>একবারে যতগুলো নমুনা গণনা হয়: কম হলে মেমরি কম লাগে</translation>
    </message>
    <message>
        <source>&amp;Micro-batch (memory):</source>
        <translation>মাইক্রো-ব্যাচ (মেমরি) (&amp;M):</translation>
    </message>
    <message>
        <source>Upload ca&amp;p:</source>
        <translation>আপলোডের সীমা (&amp;P):</translation>
    </message>
    <message>
        <source>Dow&amp;nload cap:</source>
        <translation>ডাউনলোডের সীমা (&amp;N):</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>No quota</source>
        <translation>কোটা নেই</translation>
    </message>
    <message>
        <source>Daily &amp;transfer quota:</source>
        <translation>দৈনিক ডেটা কোটা (&amp;T):</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::MainWindow</name>
    <message>
        <source>Sahaj</source>
        <translation>Sahaj</translation>
    </message>
    <message>
        <source>Panels</source>
        <translation>প্যানেল</translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation>অবদান</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>ব্যান্ডউইথ</translation>
    </message>
    <message>
        <source>Peers</source>
        <translation>পিয়ার</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>প্রশিক্ষণ</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>লগ</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>অবস্থা</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>বিজ্ঞপ্তি</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>&amp;Sahaj</source>
        <translation>&amp;Sahaj</translation>
    </message>
    <message>
        <source>&amp;Join…</source>
        <translation>যোগ দিন (&amp;J)…</translation>
    </message>
    <message>
        <source>Ctrl+J</source>
        <translation>Ctrl+J</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>সেটিংস (&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+,</source>
        <translation>Ctrl+,</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>প্রস্থান (&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>প্রদর্শন (&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>সহায়তা (&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Sahaj</source>
        <translation>Sahaj সম্পর্কে (&amp;A)</translation>
    </message>
    <message>
        <source>About Sahaj</source>
        <translation>Sahaj সম্পর্কে</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Sahaj&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Volunteers train a Bengali language model together: each computer computes part of every batch and the peers average their gradients over the internet.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Sahaj&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;স্বেচ্ছাসেবীরা মিলে একটি বাংলা ভাষা মডেল প্রশিক্ষণ দেন: প্রতিটি কম্পিউটার প্রতিটি ব্যাচের একটি অংশ গণনা করে এবং পিয়াররা ইন্টারনেটের মাধ্যমে নিজেদের গ্রেডিয়েন্টের গড় নির্ণয় করে।&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Leave</source>
        <translation>ছেড়ে যান (&amp;L)</translation>
    </message>
    <message>
        <source>Sahaj — %1</source>
        <translation>Sahaj — %1</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>যোগ দিন</translation>
    </message>
    <message>
        <source>Password or invite code for %1:</source>
        <translation>%1-এর পাসওয়ার্ড বা আমন্ত্রণ কোড:</translation>
    </message>
    <message>
        <source>Joining did not start: %1</source>
        <translation>যোগদান শুরু হয়নি: %1</translation>
    </message>
    <message>
        <source>Sahaj keeps running</source>
        <translation>Sahaj চলতে থাকবে</translation>
    </message>
    <message>
        <source>Sahaj is still contributing. Open it or quit from its icon in the tray.</source>
        <translation>Sahaj এখনও অবদান রাখছে। ট্রেতে থাকা এর আইকন থেকে এটি খুলুন বা বন্ধ করুন।</translation>
    </message>
    <message>
        <source>&lt;p&gt;Copyright © 2026 The Sahaj developers&lt;/p&gt;</source>
        <translation>&lt;p&gt;কপিরাইট © ২০২৬ Sahaj-এর ডেভেলপারগণ&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Sahaj is free software under the &lt;a href=&quot;%1&quot;&gt;GNU General Public License, version 3 or later&lt;/a&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Sahaj একটি মুক্ত সফটওয়্যার, যা &lt;a href=&quot;%1&quot;&gt;GNU জেনারেল পাবলিক লাইসেন্সের সংস্করণ ৩ বা তার পরবর্তী কোনো সংস্করণের&lt;/a&gt; অধীনে প্রকাশিত।&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>থামছে…</translation>
    </message>
    <message>
        <source>The run link cannot be joined: %1</source>
        <translation>এই রানের লিংক দিয়ে যোগ দেওয়া যাচ্ছে না: %1</translation>
    </message>
    <message>
        <source>Try the &amp;demo</source>
        <translation>ডেমো চালিয়ে দেখুন (&amp;D)</translation>
    </message>
    <message>
        <source>A small collaboration on this computer alone, in a window of its own</source>
        <translation>শুধু এই কম্পিউটারে, আলাদা একটি উইন্ডোতে একটি ছোট সহযোগিতা</translation>
    </message>
    <message>
        <source>&amp;Copy system information</source>
        <translation>সিস্টেমের তথ্য কপি করুন (&amp;C)</translation>
    </message>
    <message>
        <source>System information copied: paste it into your report</source>
        <translation>সিস্টেমের তথ্য কপি হয়েছে: আপনার প্রতিবেদনে পেস্ট করুন</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PauseToggle</name>
    <message>
        <source>&amp;Pause</source>
        <translation>বিরতি (&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>আবার চালু (&amp;R)</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PeerMapPanel</name>
    <message>
        <source>Peers of the collaboration</source>
        <translation>সহযোগিতার পিয়ার</translation>
    </message>
    <message>
        <source>Peer</source>
        <translation>পিয়ার</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>ভূমিকা</translation>
    </message>
    <message>
        <source>Country</source>
        <translation>দেশ</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>গতি</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>ল্যাটেন্সি</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>ইপক</translation>
    </message>
    <message>
        <source>%1 (you)</source>
        <translation>%1 (আপনি)</translation>
    </message>
    <message>
        <source>Listed but not on the map: %1 (no country shared, or one too small for this map)</source>
        <translation>তালিকায় আছে কিন্তু মানচিত্রে নেই: %1 (দেশ জানানো হয়নি, অথবা দেশটি এই মানচিত্রের জন্য খুব ছোট)</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::PeerRole</name>
    <message>
        <source>node</source>
        <translation>নোড</translation>
    </message>
    <message>
        <source>client</source>
        <translation>ক্লায়েন্ট</translation>
    </message>
    <message>
        <source>auxiliary</source>
        <translation>সহায়ক</translation>
    </message>
    <message>
        <source>coordinator</source>
        <translation>সমন্বয়কারী</translation>
    </message>
    <message>
        <source>other</source>
        <translation>অন্যান্য</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::ReachabilityText</name>
    <message>
        <source>Others can connect to this computer (at %1): it aggregates a share of each averaging round.</source>
        <translation>অন্যরা এই কম্পিউটারে সংযোগ করতে পারে (%1-এ): প্রতিটি গড় নির্ণয়ের রাউন্ডের একটি অংশ এটি একত্র করে।</translation>
    </message>
    <message>
        <source>Behind NAT: sending only. The others cannot connect to this computer (the coordinator sees it as %1), so it sends its gradients but aggregates no share of the rounds.</source>
        <translation>NAT-এর পেছনে: শুধু পাঠায়। অন্যরা এই কম্পিউটারে সংযোগ করতে পারে না (সমন্বয়কারী একে %1 হিসেবে দেখে), তাই এটি নিজের গ্রেডিয়েন্ট পাঠায় কিন্তু রাউন্ডগুলোর কোনো অংশ একত্র করে না।</translation>
    </message>
    <message>
        <source>Behind a firewall: sending only. The coordinator could not connect to %1 (%2), so this computer sends its gradients but aggregates no share of the rounds.</source>
        <translation>ফায়ারওয়ালের পেছনে: শুধু পাঠায়। সমন্বয়কারী %1-এ সংযোগ করতে পারেনি (%2), তাই এই কম্পিউটার নিজের গ্রেডিয়েন্ট পাঠায় কিন্তু রাউন্ডগুলোর কোনো অংশ একত্র করে না।</translation>
    </message>
    <message>
        <source>Connecting out only, as set in the settings: this computer aggregates no share of the rounds.</source>
        <translation>সেটিংস অনুযায়ী শুধু বাইরের দিকে সংযোগ: এই কম্পিউটার রাউন্ডগুলোর কোনো অংশ একত্র করে না।</translation>
    </message>
    <message>
        <source>Accepting connections at %1; whether others can reach it was not checked (%2).</source>
        <translation>%1-এ সংযোগ গ্রহণ করছে; অন্যরা একে পৌঁছাতে পারে কি না তা যাচাই করা হয়নি (%2)।</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::RoundShareBars</name>
    <message>
        <source>Share of the recent averaging rounds</source>
        <translation>সাম্প্রতিক গড় নির্ণয়ের রাউন্ডগুলোতে অংশ</translation>
    </message>
    <message>
        <source>Rounds shown: %1</source>
        <translation>দেখানো রাউন্ড: %1</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>ইপক %1</translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1: %2, %3</translation>
    </message>
    <message>
        <source>%1 (this computer)</source>
        <translation>%1 (এই কম্পিউটার)</translation>
    </message>
    <message>
        <source>%1 (did not complete)</source>
        <translation>%1 (সম্পূর্ণ হয়নি)</translation>
    </message>
    <message>
        <source>%1 to average, %2 sent, %3 received</source>
        <translation>গড়ের জন্য %1, প্রেরিত %2, গৃহীত %3</translation>
    </message>
    <message>
        <source>No averaging round yet</source>
        <translation>এখনও গড় নির্ণয়ের কোনো রাউন্ড হয়নি</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::RunLinkField</name>
    <message>
        <source>Choose &amp;file…</source>
        <translation>ফাইল বেছে নিন (&amp;F)…</translation>
    </message>
    <message>
        <source>Choose a join file</source>
        <translation>একটি যোগদান ফাইল বেছে নিন</translation>
    </message>
    <message>
        <source>Join file</source>
        <translation>যোগদান ফাইল</translation>
    </message>
    <message>
        <source>Join files (*.join *.json);;All files (*)</source>
        <translation>যোগদান ফাইল (*.join *.json);;সব ফাইল (*)</translation>
    </message>
    <message>
        <source>sahaj:join/…, https://… or a join file</source>
        <translation>sahaj:join/…, https://… অথবা একটি যোগদান ফাইল</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::SettingsDialog</name>
    <message>
        <source>Sahaj settings</source>
        <translation>Sahaj সেটিংস</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>যোগদান (&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Limits</source>
        <translation>ব্যবহারের সীমা (&amp;L)</translation>
    </message>
    <message>
        <source>Pause r&amp;ules</source>
        <translation>বিরতির নিয়ম (&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Desktop</source>
        <translation>ডেস্কটপ (&amp;D)</translation>
    </message>
    <message>
        <source>Problems with these settings</source>
        <translation>এই সেটিংসে সমস্যা</translation>
    </message>
    <message>
        <source>Join l&amp;ink:</source>
        <translation>যোগদানের লিংক (&amp;I):</translation>
    </message>
    <message>
        <source>only for runs that ask for one</source>
        <translation>শুধু যেসব প্রশিক্ষণে চাওয়া হয়</translation>
    </message>
    <message>
        <source>User &amp;name:</source>
        <translation>ব্যবহারকারীর নাম (&amp;N):</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>ঐচ্ছিক</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>ব্রাউজ (&amp;H)…</translation>
    </message>
    <message>
        <source>Choose a token file</source>
        <translation>একটি টোকেন ফাইল বেছে নিন</translation>
    </message>
    <message>
        <source>Token file</source>
        <translation>টোকেন ফাইল</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>টোকেন ফাইল (&amp;T):</translation>
    </message>
    <message>
        <source>the run&apos;s own location</source>
        <translation>প্রশিক্ষণের নিজস্ব অবস্থান</translation>
    </message>
    <message>
        <source>Choo&amp;se…</source>
        <translation>ব্রাউজ (&amp;S)…</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>ডেটা ফোল্ডার বেছে নিন</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>ডেটা ফোল্ডার</translation>
    </message>
    <message>
        <source>Data fold&amp;er:</source>
        <translation>ডেটা ফোল্ডার (&amp;E):</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>ডিভাইস (&amp;V):</translation>
    </message>
    <message>
        <source>Connect out onl&amp;y (behind NAT or a firewall)</source>
        <translation>শুধু বাইরের দিকে সংযোগ (NAT বা ফায়ারওয়ালের পেছনে) (&amp;Y)</translation>
    </message>
    <message>
        <source>Upload and download together per day; Sahaj pauses when it is reached</source>
        <translation>প্রতিদিন আপলোড ও ডাউনলোড মিলিয়ে; এটি পূর্ণ হলে Sahaj বিরতি নেয়</translation>
    </message>
    <message>
        <source>Pause while on &amp;battery</source>
        <translation>ব্যাটারিতে চললে বিরতি (&amp;B)</translation>
    </message>
    <message>
        <source>Compute only when the computer is &amp;idle for</source>
        <translation>শুধু কম্পিউটার নিষ্ক্রিয় থাকলে গণনা করুন, অন্তত (&amp;I)</translation>
    </message>
    <message>
        <source> min</source>
        <translation> মিনিট</translation>
    </message>
    <message>
        <source>Idle minutes</source>
        <translation>নিষ্ক্রিয় থাকার মিনিট</translation>
    </message>
    <message>
        <source>Compute only in these &amp;hours of the week:</source>
        <translation>সপ্তাহের শুধু এই ঘণ্টাগুলোতে গণনা করুন (&amp;H):</translation>
    </message>
    <message>
        <source>Allo&amp;w all</source>
        <translation>সব ঘণ্টা অনুমোদন (&amp;W)</translation>
    </message>
    <message>
        <source>Allow &amp;none</source>
        <translation>কোনো ঘণ্টা নয় (&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Evenings and weekends</source>
        <translation>সন্ধ্যা ও সপ্তাহান্ত (&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Start Sahaj when I log in</source>
        <translation>লগইন করলে Sahaj চালু হোক (&amp;S)</translation>
    </message>
    <message>
        <source>Show &amp;notifications (errors, disconnection, milestones)</source>
        <translation>বিজ্ঞপ্তি দেখান (ত্রুটি, সংযোগ বিচ্ছিন্ন হওয়া, মাইলফলক) (&amp;N)</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>সিস্টেমের ভাষা</translation>
    </message>
    <message>
        <source>Takes effect the next time Sahaj starts</source>
        <translation>পরের বার Sahaj চালু হলে কার্যকর হবে</translation>
    </message>
    <message>
        <source>Lan&amp;guage:</source>
        <translation>প্রদর্শনের ভাষা (&amp;G):</translation>
    </message>
    <message>
        <source>Shown to the other volunteers on their peer map</source>
        <translation>অন্য স্বেচ্ছাসেবীদের পিয়ার মানচিত্রে দেখানো হয়</translation>
    </message>
    <message>
        <source>Countr&amp;y shown to others:</source>
        <translation>অন্যদের দেখানো দেশ (&amp;Y):</translation>
    </message>
    <message>
        <source>Don&apos;t share</source>
        <translation>জানাব না</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>These settings were not saved:</source>
        <translation>এই সেটিংসগুলো সংরক্ষণ করা হয়নি:</translation>
    </message>
    <message>
        <source>auto (every GPU a compute core passes its self-test on, else the CPU), cpu, cuda (the first GPU) or cuda:N</source>
        <translation>auto (যে প্রতিটি GPU-তে কোনো কম্পিউট কোর তার স্ব-পরীক্ষায় উত্তীর্ণ হয়, নইলে CPU), cpu, cuda (প্রথম GPU) অথবা cuda:N</translation>
    </message>
    <message>
        <source>Use the &amp;GPU while the computer is in use</source>
        <translation>কম্পিউটার ব্যবহারের সময়েও &amp;GPU ব্যবহার করুন</translation>
    </message>
    <message>
        <source>Off: a GPU computes only after the computer has been idle for the minutes above; the CPU is not affected</source>
        <translation>বন্ধ থাকলে: ওপরের মিনিটগুলো কম্পিউটার নিষ্ক্রিয় থাকার পরেই কেবল GPU গণনা করে; CPU-র ওপর এর প্রভাব নেই</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>The most disk space the run&apos;s downloaded training data may take; the data used longest ago is removed first. Applies from the next time Sahaj joins.</source>
        <translation>প্রশিক্ষণের ডাউনলোড করা ডেটা ডিস্কে সর্বোচ্চ যতটা জায়গা নিতে পারে; যে ডেটা সবচেয়ে দীর্ঘ সময় ব্যবহার হয়নি, তা আগে মুছে ফেলা হয়। পরের বার Sahaj যোগ দেওয়ার সময় থেকে কার্যকর হয়।</translation>
    </message>
    <message>
        <source>Dis&amp;k space for data:</source>
        <translation>ডেটার জন্য ডিস্কের জায়গা (&amp;K):</translation>
    </message>
    <message>
        <source>https://… (optional)</source>
        <translation>https://… (ঐচ্ছিক)</translation>
    </message>
    <message>
        <source>Run directory&apos;s &amp;web address:</source>
        <translation>প্রশিক্ষণ তালিকার ওয়েব ঠিকানা (&amp;W):</translation>
    </message>
    <message>
        <source>64 hexadecimal digits, from whoever keeps the directory</source>
        <translation>৬৪টি হেক্সাডেসিমাল অঙ্ক, যিনি তালিকাটি রাখেন তাঁর কাছ থেকে</translation>
    </message>
    <message>
        <source>Directory &amp;key:</source>
        <translation>তালিকার কী (&amp;K):</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::SpeedPlotView</name>
    <message>
        <source>Upload and download speed graph</source>
        <translation>আপলোড ও ডাউনলোড গতির গ্রাফ</translation>
    </message>
    <message>
        <source>Latest upload %1, download %2</source>
        <translation>সর্বশেষ আপলোড %1, ডাউনলোড %2</translation>
    </message>
    <message>
        <source>No transfer recorded in this period</source>
        <translation>এই সময়কালে কোনো ডেটা আদান-প্রদান রেকর্ড হয়নি</translation>
    </message>
    <message>
        <source>Upload %1</source>
        <translation>আপলোড %1</translation>
    </message>
    <message>
        <source>Download %1</source>
        <translation>ডাউনলোড %1</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::StateText</name>
    <message>
        <source>Offline</source>
        <translation>অফলাইন</translation>
    </message>
    <message>
        <source>Joining</source>
        <translation>যোগ দেওয়া হচ্ছে</translation>
    </message>
    <message>
        <source>Waiting for the collaboration</source>
        <translation>সহযোগিতার অপেক্ষায়</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>প্রশিক্ষণ চলছে</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>বিরতিতে</translation>
    </message>
    <message>
        <source>Snoozed</source>
        <translation>স্নুজ করা</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>ত্রুটি</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>অজানা</translation>
    </message>
    <message>
        <source>Paused by you</source>
        <translation>আপনি বিরতি দিয়েছেন</translation>
    </message>
    <message>
        <source>Snoozed until %1</source>
        <translation>%1 পর্যন্ত স্নুজ করা</translation>
    </message>
    <message>
        <source>Paused: running on battery</source>
        <translation>বিরতি: ব্যাটারিতে চলছে</translation>
    </message>
    <message>
        <source>Paused: you are using the computer (computing only while idle)</source>
        <translation>বিরতি: আপনি কম্পিউটার ব্যবহার করছেন (শুধু নিষ্ক্রিয় থাকলে গণনা)</translation>
    </message>
    <message>
        <source>Paused: outside your weekly schedule</source>
        <translation>বিরতি: আপনার সাপ্তাহিক সময়সূচির বাইরে</translation>
    </message>
    <message>
        <source>Paused: today&apos;s transfer quota is reached</source>
        <translation>বিরতি: আজকের ডেটা কোটা পূর্ণ হয়েছে</translation>
    </message>
    <message>
        <source>pausing after this step</source>
        <translation>এই ধাপের পরে বিরতি</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 নমুনা/সেকেন্ড</translation>
    </message>
    <message>
        <source>↑ %1 ↓ %2</source>
        <translation>↑ %1 ↓ %2</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>disconnected from the collaboration — retrying</source>
        <translation>সহযোগিতা থেকে বিচ্ছিন্ন — আবার চেষ্টা করছে</translation>
    </message>
    <message>
        <source>the run&apos;s organiser could not be reached to admit this computer (the run may be down, or this computer offline): try joining again later</source>
        <translation>এই কম্পিউটারকে যুক্ত করতে প্রশিক্ষণের আয়োজকের সঙ্গে যোগাযোগ করা যায়নি (প্রশিক্ষণটি বন্ধ থাকতে পারে, অথবা এই কম্পিউটার অফলাইন): পরে আবার যোগ দেওয়ার চেষ্টা করুন</translation>
    </message>
    <message>
        <source>the run&apos;s organiser refused this computer</source>
        <translation>প্রশিক্ষণের আয়োজক এই কম্পিউটারকে ফিরিয়ে দিয়েছেন</translation>
    </message>
    <message>
        <source>the run&apos;s organiser refused this computer: %1</source>
        <translation>প্রশিক্ষণের আয়োজক এই কম্পিউটারকে ফিরিয়ে দিয়েছেন: %1</translation>
    </message>
    <message>
        <source>the run&apos;s coordinator does not answer; training goes on with the other volunteers</source>
        <translation>প্রশিক্ষণের সমন্বয়কারী সাড়া দিচ্ছে না; অন্য স্বেচ্ছাসেবকদের সঙ্গে প্রশিক্ষণ চলছে</translation>
    </message>
    <message>
        <source>Demo finished — to join a real run, quit the demo and choose Join… in Sahaj</source>
        <translation>ডেমো শেষ — আসল প্রশিক্ষণে যোগ দিতে ডেমো থেকে প্রস্থান করে Sahaj-এ &quot;যোগ দিন…&quot; বেছে নিন</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::TrainingPanel</name>
    <message>
        <source>Training</source>
        <translation>প্রশিক্ষণ</translation>
    </message>
    <message>
        <source>State</source>
        <translation>অবস্থা</translation>
    </message>
    <message>
        <source>Global epoch</source>
        <translation>সামগ্রিক ইপক</translation>
    </message>
    <message>
        <source>Global steps the collaboration has taken in this run</source>
        <translation>এই প্রশিক্ষণে সহযোগিতা মোট যতগুলো ধাপ নিয়েছে</translation>
    </message>
    <message>
        <source>Next step in</source>
        <translation>পরের ধাপ পর্যন্ত</translation>
    </message>
    <message>
        <source>Estimated time until the collaboration&apos;s batch is full and it takes a step</source>
        <translation>সহযোগিতার ব্যাচ পূর্ণ হয়ে পরের ধাপ নেওয়া পর্যন্ত আনুমানিক সময়</translation>
    </message>
    <message>
        <source>Peers online</source>
        <translation>অনলাইন পিয়ার</translation>
    </message>
    <message>
        <source>Volunteers training in this run, this one included</source>
        <translation>এই প্রশিক্ষণে অংশ নেওয়া স্বেচ্ছাসেবী, এই কম্পিউটারসহ</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>এই কম্পিউটার</translation>
    </message>
    <message>
        <source>Samples per second this computer computes</source>
        <translation>এই কম্পিউটার প্রতি সেকেন্ডে যতগুলো নমুনা গণনা করে</translation>
    </message>
    <message>
        <source>Whole collaboration</source>
        <translation>পুরো সহযোগিতা</translation>
    </message>
    <message>
        <source>Samples per second all the volunteers compute together</source>
        <translation>সব স্বেচ্ছাসেবী মিলে প্রতি সেকেন্ডে যতগুলো নমুনা গণনা করে</translation>
    </message>
    <message>
        <source>Clients online</source>
        <translation>অনলাইন ক্লায়েন্ট</translation>
    </message>
    <message>
        <source>Volunteers that compute but cannot accept connections</source>
        <translation>যেসব স্বেচ্ছাসেবী গণনা করে কিন্তু সংযোগ গ্রহণ করতে পারে না</translation>
    </message>
    <message>
        <source>Current batch</source>
        <translation>বর্তমান ব্যাচ</translation>
    </message>
    <message>
        <source>Progress of the current batch</source>
        <translation>বর্তমান ব্যাচের অগ্রগতি</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>লস</translation>
    </message>
    <message>
        <source>Training loss by epoch</source>
        <translation>ইপক অনুযায়ী প্রশিক্ষণের লস</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>ইপক</translation>
    </message>
    <message>
        <source>No loss recorded yet: the curve begins once the collaboration takes its first step.</source>
        <translation>এখনও কোনো লস রেকর্ড হয়নি: সহযোগিতা প্রথম ধাপ নিলেই রেখাচিত্রটি শুরু হবে।</translation>
    </message>
    <message>
        <source>Batch size not known yet</source>
        <translation>ব্যাচের আকার এখনও জানা নেই</translation>
    </message>
    <message>
        <source>%1 of %2 samples (%3)</source>
        <translation>%2টি নমুনার মধ্যে %1টি (%3)</translation>
    </message>
    <message>
        <source>%1 points, from epoch %2 to %3; the latest loss is %4</source>
        <translation>%1টি বিন্দু, ইপক %2 থেকে %3; সর্বশেষ লস %4</translation>
    </message>
    <message>
        <source>What computes</source>
        <translation>কী গণনা করছে</translation>
    </message>
    <message>
        <source>The compute core and device training here; the event log says why others were passed over</source>
        <translation>এখানে প্রশিক্ষণ চালানো কম্পিউট কোর ও ডিভাইস; অন্যগুলো কেন বাদ পড়েছে তা ঘটনার লগে লেখা আছে</translation>
    </message>
    <message>
        <source>Computing with the %1</source>
        <translation>গণনা চলছে: %1</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::TrayIcon</name>
    <message>
        <source>Sahaj</source>
        <translation>Sahaj</translation>
    </message>
    <message>
        <source>&amp;Open Sahaj</source>
        <translation>Sahaj খুলুন (&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>বিরতি (&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Snooze</source>
        <translation>স্নুজ (&amp;S)</translation>
    </message>
    <message>
        <source>For &amp;1 hour</source>
        <translation>১ ঘণ্টার জন্য (&amp;1)</translation>
    </message>
    <message>
        <source>For &amp;3 hours</source>
        <translation>৩ ঘণ্টার জন্য (&amp;3)</translation>
    </message>
    <message>
        <source>For &amp;6 hours</source>
        <translation>৬ ঘণ্টার জন্য (&amp;6)</translation>
    </message>
    <message>
        <source>&amp;Cancel snooze</source>
        <translation>স্নুজ বাতিল করুন (&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>প্রস্থান (&amp;Q)</translation>
    </message>
    <message>
        <source>Sahaj: %1</source>
        <translation>Sahaj: %1</translation>
    </message>
    <message>
        <source>Sahaj stopped training</source>
        <translation>Sahaj প্রশিক্ষণ বন্ধ করেছে</translation>
    </message>
    <message>
        <source>Training stopped because of an error.</source>
        <translation>একটি ত্রুটির কারণে প্রশিক্ষণ বন্ধ হয়ে গেছে।</translation>
    </message>
    <message>
        <source>Sahaj is disconnected</source>
        <translation>Sahaj-এর সংযোগ বিচ্ছিন্ন</translation>
    </message>
    <message>
        <source>This computer left the collaboration.</source>
        <translation>এই কম্পিউটার সহযোগিতা ছেড়ে গেছে।</translation>
    </message>
    <message>
        <source>Sahaj milestone</source>
        <translation>Sahaj মাইলফলক</translation>
    </message>
    <message>
        <source>Sahaj could not join the run</source>
        <translation>Sahaj প্রশিক্ষণে যোগ দিতে পারেনি</translation>
    </message>
    <message>
        <source>&amp;Finish this step, then pause</source>
        <translation>এই ধাপ শেষ করে বিরতি (&amp;F)</translation>
    </message>
    <message>
        <source>Sahaj — stopping…</source>
        <translation>Sahaj — থামছে…</translation>
    </message>
    <message>
        <source>Sahaj is disconnected — retrying</source>
        <translation>Sahaj-এর সংযোগ বিচ্ছিন্ন — আবার চেষ্টা করছে</translation>
    </message>
    <message>
        <source>No other peer of the collaboration has been heard from for a while. Sahaj keeps computing and tries to reach them again.</source>
        <translation>কিছুক্ষণ ধরে সহযোগিতার অন্য কোনো পিয়ারের সাড়া পাওয়া যায়নি। Sahaj গণনা চালিয়ে যাচ্ছে এবং আবার তাদের সাথে যোগাযোগের চেষ্টা করছে।</translation>
    </message>
    <message>
        <source>%1 global steps contributed</source>
        <translation>সহযোগিতার %1টি সামগ্রিক ধাপে অবদান রাখা হয়েছে</translation>
    </message>
    <message>
        <source>The run&apos;s coordinator does not answer</source>
        <translation>প্রশিক্ষণের সমন্বয়কারী সাড়া দিচ্ছে না</translation>
    </message>
    <message>
        <source>Training goes on with the other volunteers; new volunteers cannot join until the coordinator is back.</source>
        <translation>অন্য স্বেচ্ছাসেবকদের সঙ্গে প্রশিক্ষণ চলছে; সমন্বয়কারী ফিরে না আসা পর্যন্ত নতুন স্বেচ্ছাসেবকেরা যোগ দিতে পারবেন না।</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WeeklyScheduleGrid</name>
    <message>
        <source>Weekly schedule</source>
        <translation>সাপ্তাহিক সময়সূচি</translation>
    </message>
    <message>
        <source>Hours of the week in which Sahaj may compute. Space toggles the selected hours.</source>
        <translation>সপ্তাহের যেসব ঘণ্টায় Sahaj গণনা করতে পারবে। স্পেস চাপলে নির্বাচিত ঘণ্টাগুলো চালু বা বন্ধ হয়।</translation>
    </message>
    <message>
        <source>%1, %2:00 to %3:00</source>
        <translation>%1, %2:00 থেকে %3:00</translation>
    </message>
    <message>
        <source>%1: computing allowed</source>
        <translation>%1: গণনা অনুমোদিত</translation>
    </message>
    <message>
        <source>%1: paused</source>
        <translation>%1: বিরতি</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WorldMap</name>
    <message>
        <source>The world map %1 cannot be read: %2.</source>
        <translation>বিশ্ব মানচিত্র %1 পড়া যাচ্ছে না: %2।</translation>
    </message>
    <message>
        <source>The world map %1 is too large (%2 bytes, at most %3).</source>
        <translation>বিশ্ব মানচিত্র %1 খুব বড় (%2 বাইট, সর্বোচ্চ %3)।</translation>
    </message>
    <message>
        <source>The world map %1 is not valid JSON: %2 at byte %3.</source>
        <translation>বিশ্ব মানচিত্র %1 বৈধ JSON নয়: বাইট %3-এ %2।</translation>
    </message>
    <message>
        <source>The world map %1 is not in the sahaj-world-map format, version 1.</source>
        <translation>বিশ্ব মানচিত্র %1 sahaj-world-map ফরম্যাটের সংস্করণ ১-এ লেখা নয়।</translation>
    </message>
    <message>
        <source>The world map %1 lists no countries.</source>
        <translation>বিশ্ব মানচিত্র %1-এ কোনো দেশের তালিকা নেই।</translation>
    </message>
    <message>
        <source>The world map %1: country %2 (%3) %4.</source>
        <translation>বিশ্ব মানচিত্র %1: দেশ %2 (%3): %4।</translation>
    </message>
    <message>
        <source>no code</source>
        <translation>কোড নেই</translation>
    </message>
    <message>
        <source>has no ISO 3166 alpha-2 code</source>
        <translation>ISO 3166 alpha-2 কোড নেই</translation>
    </message>
    <message>
        <source>is listed twice</source>
        <translation>দুবার তালিকাভুক্ত</translation>
    </message>
    <message>
        <source>has no name</source>
        <translation>নাম নেই</translation>
    </message>
    <message>
        <source>has no label point [longitude, latitude]</source>
        <translation>লেবেলের বিন্দু [দ্রাঘিমাংশ, অক্ষাংশ] নেই</translation>
    </message>
    <message>
        <source>has no rings</source>
        <translation>কোনো রিং (সীমারেখা) নেই</translation>
    </message>
    <message>
        <source>has a ring of fewer than four points</source>
        <translation>চারটির কম বিন্দুর একটি রিং আছে</translation>
    </message>
    <message>
        <source>has a point that is not [longitude, latitude] in degrees</source>
        <translation>এমন একটি বিন্দু আছে যা ডিগ্রিতে [দ্রাঘিমাংশ, অক্ষাংশ] নয়</translation>
    </message>
</context>
<context>
    <name>sahaj::ui::WorldMapView</name>
    <message>
        <source>World map of peers</source>
        <translation>পিয়ারদের বিশ্ব মানচিত্র</translation>
    </message>
    <message>
        <source>not shared</source>
        <translation>জানানো হয়নি</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>মাপা হয়নি</translation>
    </message>
    <message>
        <source>Peer %1 (this computer)</source>
        <translation>পিয়ার %1 (এই কম্পিউটার)</translation>
    </message>
    <message>
        <source>Peer %1</source>
        <translation>পিয়ার %1</translation>
    </message>
    <message>
        <source>Role: %1</source>
        <translation>ভূমিকা: %1</translation>
    </message>
    <message>
        <source>Country: %1</source>
        <translation>দেশ: %1</translation>
    </message>
    <message>
        <source>Speed: %1</source>
        <translation>গতি: %1</translation>
    </message>
    <message>
        <source>Latency: %1</source>
        <translation>ল্যাটেন্সি: %1</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>এই কম্পিউটার</translation>
    </message>
    <message>
        <source>Peers placed on the map by country: %1</source>
        <translation>দেশ অনুযায়ী মানচিত্রে রাখা পিয়ার: %1</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>সাড়া নেই</translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::DemoFillMaskRun</name>
    <message>
        <source>%1 could not be run</source>
        <translation>%1 চালানো গেল না</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 সেকেন্ডের মধ্যে কোনো উত্তর নেই</translation>
    </message>
    <message>
        <source>the model could not be read</source>
        <translation>মডেলটি পড়া গেল না</translation>
    </message>
    <message>
        <source>it printed none</source>
        <translation>কোনো অনুমান দেয়নি</translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::DemoOutcome</name>
    <message>
        <source>no prediction (%1)</source>
        <translation>কোনো অনুমান নেই (%1)</translation>
    </message>
    <message>
        <source>The demo finished: %1 steps.</source>
        <translation>ডেমো শেষ হয়েছে: %1টি ধাপ।</translation>
    </message>
    <message>
        <source>The demo finished: %1 steps, loss %2 → %3.</source>
        <translation>ডেমো শেষ হয়েছে: %1টি ধাপ, লস %2 → %3।</translation>
    </message>
    <message>
        <source>Fill-mask &quot;%1&quot; — before training: %2; after: %3.</source>
        <translation>Fill-mask &quot;%1&quot; — প্রশিক্ষণের আগে: %2; পরে: %3।</translation>
    </message>
</context>
<context>
    <name>sahaj::volunteer::VolunteerApplication</name>
    <message>
        <source>Sahaj</source>
        <translation>Sahaj</translation>
    </message>
    <message>
        <source>The demo did not start: %1 could not be run.</source>
        <translation>ডেমো শুরু হয়নি: %1 চালানো গেল না।</translation>
    </message>
</context>
</TS>
