# slot ads for condor_q -better-analyze: three machines, one of them
# with a partitionable slot and a dynamic slot carved from it
Name = "slot1@node1.example.org"
Machine = "node1.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 2048
Disk = 100000
Cpus = 1
State = "Unclaimed"
Activity = "Idle"
START = true
Requirements = START

Name = "slot2@node1.example.org"
Machine = "node1.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 2048
Disk = 100000
Cpus = 1
State = "Claimed"
Activity = "Busy"
RemoteUser = "alice@example.org"
START = TARGET.Owner != "bob"
Requirements = START

Name = "slot1@node2.example.org"
Machine = "node2.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 16000
Disk = 500000
Cpus = 7
PartitionableSlot = true
State = "Unclaimed"
Activity = "Idle"
START = true
Requirements = START

Name = "slot1_1@node2.example.org"
Machine = "node2.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "LINUX"
Memory = 1024
Disk = 10000
Cpus = 1
DynamicSlot = true
State = "Claimed"
Activity = "Busy"
RemoteUser = "bob@example.org"
START = true
Requirements = START

Name = "slot1@winbox.example.org"
Machine = "winbox.example.org"
MyType = "Machine"
Arch = "X86_64"
OpSys = "WINDOWS"
Memory = 8192
Disk = 100000
Cpus = 4
State = "Unclaimed"
Activity = "Idle"
START = true
Requirements = START
