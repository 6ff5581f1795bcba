# big ids, a long owner name and a big memory size: the columns widen
ClusterId = 123456
ProcId = 0
Owner = "averyverylongusername"
JobStatus = 1
JobUniverse = 5
QDate = 1795424400
Cmd = "/bin/sleep"
Arguments = "60"
JobPrio = 0
ImageSize = 2048
RemoteUserCpu = 0.0
ServerTime = 1795428672

ClusterId = 123456
ProcId = 1000
Owner = "averyverylongusername"
JobStatus = 1
JobUniverse = 5
QDate = 1795424400
Cmd = "/bin/sleep"
Arguments = "60"
JobPrio = 0
ImageSize = 2048
RemoteUserCpu = 0.0
ServerTime = 1795428672
MemoryUsage = 123456

