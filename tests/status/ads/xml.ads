MyType = "Machine"
Name = "slot1@odd.example.org"
Machine = "odd.example.org"
Cpus = 4
LoadAvg = 0.25
HasDocker = false
Start = true
Description = "<b>R&D</b> \"lab\" 'east' café"
Nested = [ a = 1; b = { "x", 2.5, undefined }; c = [ d = error ] ]
Mixed = { 1, "two", true, Cpus * 2 }
Rank = (TARGET.Owner == "carol") && (Memory >= 1024) || (Cpus < 2)
Missing = undefined
Broken = error
Since = absTime("2026-11-23T10:11:12Z")
