# slot ads for condor_q -better-analyze considering user priority: three
# static slots, every one claimed: by bob (a worse priority than
# alice's), by carol (a better one) and by alice herself
Name = "slot1@c1.example.org"
Machine = "c1.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 2048
Disk = 100000
Cpus = 1
State = "Claimed"
Activity = "Busy"
RemoteUser = "bob@example.org"
Rank = 0
CurrentRank = 0
START = true
Requirements = START

Name = "slot2@c1.example.org"
Machine = "c1.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 2048
Disk = 100000
Cpus = 1
State = "Claimed"
Activity = "Busy"
RemoteUser = "carol@example.org"
Rank = 0
CurrentRank = 0
START = true
Requirements = START

Name = "slot1@c2.example.org"
Machine = "c2.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 2048
Disk = 100000
Cpus = 1
State = "Claimed"
Activity = "Busy"
RemoteUser = "alice@example.org"
Rank = 0
CurrentRank = 0
START = true
Requirements = START
