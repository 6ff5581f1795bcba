# job ads for condor_q -io (see ../README): 30.0 receiving its input,
# 30.1 sending its output and queued for more, 30.2 idle with nothing
# under way (not listed), 31.0 in the standard universe
ClusterId = 30
ProcId = 0
Owner = "alice"
JobStatus = 2
JobUniverse = 5
NumJobStarts = 1
TransferringInput = true
BytesRecvd = 1536000.0
BytesSent = 0.0
ServerTime = 1795428672
QDate = 1795424400

ClusterId = 30
ProcId = 1
Owner = "alice"
JobStatus = 2
JobUniverse = 5
NumJobStarts = 3
TransferringOutput = true
TransferQueued = true
BytesRecvd = 2048.0
BytesSent = 5368709120.0
ServerTime = 1795428672
QDate = 1795424400

ClusterId = 30
ProcId = 2
Owner = "bob"
JobStatus = 1
JobUniverse = 5
NumJobStarts = 0
ServerTime = 1795428672
QDate = 1795424400

ClusterId = 31
ProcId = 0
Owner = "bob"
JobStatus = 1
JobUniverse = 1
NumCkpts_RAW = 2
FileReadBytes = 100
FileWriteBytes = 900
ServerTime = 1795428672
QDate = 1795424400
